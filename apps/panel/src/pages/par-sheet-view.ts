import { count, decimal, el, moneyOfMajor, percent, saveFile } from '@raspa/browser-kit';
import type { Game, ParSheet } from '@raspa/server/wire';
import { table } from '../ui/blocks.ts';
import type { PageContext } from '../ui/context.ts';
import { Feedback } from '../ui/feedback.ts';

type Level = ParSheet['levels'][number];
type Range = ParSheet['ranges'][number];

/**
 * A game version's PAR sheet (GET /v1/game/{id}/par-sheet, docs/certification.md): its figures, its
 * levels and the player's return ranges, printable (styles.css' print media keeps this sheet alone),
 * and the certification pack's download.
 */
export function parSheetView(context: PageContext, game: Game): HTMLElement {
  const { api, t, lang } = context;
  const feedback = new Feedback(() => t);
  const body = el('div');
  const name = t.parSheet.of(game.gameModel, game.version);
  const title = el('h2', { tabindex: -1 }, [name]);
  const money = (amount: number) => moneyOfMajor(amount, game.currency, lang);
  const range = ([low, high]: [number, number]) => `${percent(low, lang, 1)} – ${percent(high, lang, 1)}`;

  const print = el('button', { type: 'button', class: 'secondary no-print' }, [t.parSheet.print]);
  print.addEventListener('click', () => window.print());
  const pack = el('button', { type: 'button', class: 'secondary no-print' }, [t.parSheet.pack]);
  pack.addEventListener('click', async () => {
    const file = await feedback.run(t.common.loading, () => api.certificationPack(game.id), { button: pack });
    if (!file) return;
    saveFile(file.name, file.blob);
    feedback.say(t.parSheet.packSaved(file.name));
  });

  function show(sheet: ParSheet) {
    const figures: Array<[string, string]> = [
      ['gameId', sheet.gameId],
      ['version', String(sheet.version)],
      ['betPrice', money(sheet.betPrice)],
      ['sampling', count(sheet.sampling, lang)],
      ['rtp', percent(sheet.rtp, lang, 4)],
      ['hitFrequency', percent(sheet.hitFrequency, lang, 4)],
      ['stdDev', decimal(sheet.stdDev, lang, 4)],
      ['maxWinMultiple', decimal(sheet.maxWinMultiple, lang, 2)],
    ];
    body.replaceChildren(
      table<[string, string]>(
        t.parSheet.figures,
        [
          [t.parSheet.figure, ([figure]) => figure],
          [t.parSheet.value, ([, value]) => value],
        ],
        figures,
        t.common.none,
      ),
      table<Level>(
        t.parSheet.levels,
        [
          [t.parSheet.level, (level) => level.level],
          [t.parSheet.prize, (level) => money(level.prize)],
          [t.parSheet.multiple, (level) => decimal(level.multiple, lang, 2)],
          [t.parSheet.winners, (level) => count(level.winners, lang)],
          [t.parSheet.probability, (level) => percent(level.probability, lang, 4)],
          [t.parSheet.oneIn, (level) => decimal(level.oneIn, lang, 1)],
          [t.parSheet.rtpShare, (level) => percent(level.rtpShare, lang, 3)],
        ],
        sheet.levels,
        t.common.none,
      ),
      table<Range>(
        t.parSheet.ranges,
        [
          [t.parSheet.cards, (each) => count(each.cards, lang)],
          [t.parSheet.p90, (each) => range(each.p90)],
          [t.parSheet.p99, (each) => range(each.p99)],
        ],
        sheet.ranges,
        t.common.none,
      ),
    );
  }

  void feedback
    .run(t.common.loading, () => api.parSheet(game.id), { region: body })
    .then((sheet) => {
      if (sheet) show(sheet);
    });
  queueMicrotask(() => title.focus());
  return el('section', { class: 'card par-sheet', 'aria-label': name }, [
    title,
    el('p', { class: 'hint' }, [t.parSheet.intro]),
    el('div', { class: 'row-actions no-print' }, [print, pack]),
    ...feedback.nodes(),
    body,
  ]);
}
