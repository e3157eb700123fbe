import { el, fill, uid, utcTime } from '@raspa/browser-kit';
import type { Exclusion } from '@raspa/server/wire';
import { utcInputToIso } from '../promotions/promotion-draft.ts';
import { field } from '../ui/blocks.ts';
import type { PageContext } from '../ui/context.ts';
import { Feedback } from '../ui/feedback.ts';

/**
 * The player's exclusion: what holds; an operator exclusion set (until a time, or indefinitely) or
 * lifted; a self exclusion shown with why it cannot be lifted (CONTRACT §13: not before it ends).
 */
export function exclusionSection(context: PageContext, userId: string): HTMLElement {
  const { api, t, lang } = context;
  const feedback = new Feedback(() => t);
  const body = el('div');
  const title = el('h2', { tabindex: -1 }, [t.player.exclusionTitle]);

  function excludeForm(): HTMLFormElement {
    const name = uid('exclusion-for');
    const until = el('input', { name: 'until', type: 'datetime-local' });
    const submit = el('button', { type: 'submit', class: 'danger' }, [t.player.exclude]);
    const radio = (value: string, label: string, checked: boolean) =>
      el('div', { class: 'check' }, [
        el('input', { type: 'radio', name: 'for', id: `${name}-${value}`, value, checked }),
        el('label', { for: `${name}-${value}` }, [label]),
      ]);
    const form = el('form', { class: 'exclude-form' }, [
      el('h3', {}, [t.player.excludeTitle]),
      el('p', { class: 'hint' }, [t.player.excludeIntro]),
      el('fieldset', {}, [
        el('legend', {}, [t.player.excludeFor]),
        radio('until', t.player.untilTime, true),
        radio('indefinite', t.player.indefinitely, false),
      ]),
      field(t.player.until, until),
      el('div', { class: 'actions' }, [submit]),
    ]);
    const indefinite = () =>
      form.querySelector<HTMLInputElement>('input[value="indefinite"]')?.checked ?? false;
    form.addEventListener('change', () => {
      until.disabled = indefinite();
      until.required = !indefinite();
    });
    until.required = true;
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const endsAt = indefinite() ? null : utcInputToIso(until.value);
      if (endsAt === undefined) {
        feedback.show([t.promotions.badTime(t.player.until)]);
        until.focus();
        return;
      }
      const done = await feedback.run(
        t.common.saving,
        () => api.exclude(userId, { reason: 'operator', until: endsAt }),
        { button: submit, region: form },
      );
      if (done) show(done, t.player.excluded);
    });
    return form;
  }

  async function lift(button: HTMLButtonElement) {
    if (!window.confirm(t.player.confirmLift)) return;
    const done = await feedback.run(t.common.saving, () => api.liftExclusion(userId).then(() => true), {
      button,
    });
    if (done) show(null, t.player.lifted);
  }

  function show(exclusion: Exclusion | null, said = ''): void {
    if (!exclusion) {
      body.replaceChildren(
        el('p', { 'data-testid': 'exclusion-state' }, [t.player.notExcluded]),
        excludeForm(),
      );
    } else {
      const who = t.player.excludedBy[exclusion.reason];
      const liftButton = el('button', { type: 'button', class: 'secondary' }, [t.player.lift]);
      liftButton.addEventListener('click', () => void lift(liftButton));
      fill(body, [
        el('p', { 'data-testid': 'exclusion-state' }, [
          el('strong', {}, [
            exclusion.until
              ? t.player.excludedUntil(who, utcTime(exclusion.until, lang))
              : t.player.excludedForever(who),
          ]),
          ` ${t.player.since(utcTime(exclusion.createdAt, lang))}`,
        ]),
        // The player's own decision: no button that the service would refuse anyway.
        exclusion.reason === 'self'
          ? el('p', { class: 'notice' }, [t.player.selfCannotLift])
          : el('div', { class: 'actions' }, [liftButton]),
        exclusion.reason === 'operator' ? excludeForm() : null,
      ]);
    }
    if (said) {
      feedback.say(said);
      title.focus();
    }
  }

  void feedback
    .run(t.common.loading, () => api.getExclusion(userId), { region: body })
    .then((exclusion) => {
      if (exclusion !== undefined) show(exclusion);
    });
  return el('section', { class: 'card', 'aria-label': t.player.exclusionTitle }, [
    title,
    ...feedback.nodes(),
    body,
  ]);
}
