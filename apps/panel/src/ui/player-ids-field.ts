import { count, el, fill, uid } from '@raspa/browser-kit';
import { PROMOTION_LIMITS } from '@raspa/core';
import type { Lang } from '@raspa/server/wire';
import type { Catalogue } from '../i18n/en.ts';
import { type ParsedPlayerIds, parsePlayerIds } from '../promotions/player-ids.ts';
import { field } from './blocks.ts';

export interface PlayerIdsField {
  node: HTMLElement;
  /** The ids in the box now, parsed (the form refuses to send while there are problems). */
  read(): ParsedPlayerIds;
  clear(): void;
}

/**
 * Players' ids pasted in a box, or read into it from a text/CSV file, with what the panel made of them
 * said as you type (distinct ids, repeats, blanks, and each line it cannot use), before anything is sent.
 */
export function playerIdsField(t: Catalogue, lang: Lang): PlayerIdsField {
  const box = el('textarea', {
    name: 'players',
    rows: 6,
    spellcheck: false,
    autocomplete: 'off',
    class: 'ids',
  });
  const file = el('input', { type: 'file', accept: '.txt,.csv,text/plain,text/csv' });
  const summary = el('div', { class: 'hint', 'aria-live': 'polite', id: uid('ids') });
  let parsed = parsePlayerIds('');

  const describe = () => {
    parsed = parsePlayerIds(box.value);
    if (box.value.trim() === '') {
      summary.replaceChildren();
      return;
    }
    fill(summary, [
      el('p', {}, [t.promotions.idsSummary(count(parsed.ids.length, lang), parsed.repeats, parsed.blanks)]),
      parsed.header ? el('p', {}, [t.promotions.headerSkipped]) : null,
      parsed.problems.length
        ? el('div', {}, [
            el('p', {}, [t.promotions.problemsTitle]),
            el(
              'ul',
              { class: 'problems' },
              // The first 20: enough to see what is wrong with a file without drowning the page.
              parsed.problems
                .slice(0, 20)
                .map((problem) =>
                  el('li', {}, [
                    t.promotions.problem(problem.line, problem.text, t.promotions.reasons[problem.reason]),
                  ]),
                ),
            ),
          ])
        : null,
    ]);
  };
  box.addEventListener('input', describe);
  file.addEventListener('change', async () => {
    const chosen = file.files?.[0];
    if (!chosen) return;
    box.value = await chosen.text();
    describe();
    summary.prepend(el('p', {}, [t.promotions.fileRead(chosen.name)]));
  });

  const boxField = field(
    t.promotions.playerIds,
    box,
    t.promotions.playerIdsHint(count(PROMOTION_LIMITS.playersPerCall.max, lang)),
  );
  box.setAttribute('aria-describedby', `${box.getAttribute('aria-describedby')} ${summary.id}`);
  return {
    node: el('div', { class: 'player-ids' }, [boxField, field(t.promotions.file, file), summary]),
    read: () => parsed,
    clear: () => {
      box.value = '';
      file.value = '';
      describe();
    },
  };
}
