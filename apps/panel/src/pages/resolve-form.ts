import { el, uid } from '@raspa/browser-kit';
import type { Round, RoundResolution } from '@raspa/server/wire';
import { field, formValues } from '../ui/blocks.ts';
import type { PageContext } from '../ui/context.ts';
import { Feedback } from '../ui/feedback.ts';

const RESOLUTIONS: ReadonlyArray<RoundResolution['resolution']> = ['paid', 'written-off'];

/**
 * The form that closes a round flagged for reconciliation once the operator settled it by hand:
 * paid or written off, and a note for the audit trail (POST /v1/round/{roundId}/resolve).
 */
export function resolveForm(
  context: PageContext,
  round: Pick<Round, '_id'>,
  onResolved: (resolution: RoundResolution) => void | Promise<void>,
): HTMLElement {
  const { api, t } = context;
  const feedback = new Feedback(() => t);
  const name = uid('resolution');
  const submit = el('button', { type: 'submit' }, [t.flagged.resolve]);
  const note = el('textarea', { name: 'note', required: true, maxlength: 1000, rows: 3 });
  const form = el('form', { class: 'resolve' }, [
    el('fieldset', {}, [
      el('legend', {}, [t.flagged.outcome]),
      ...RESOLUTIONS.map((resolution, index) => {
        const id = `${name}-${resolution}`;
        return el('div', { class: 'check' }, [
          el('input', {
            type: 'radio',
            name: 'resolution',
            id,
            value: resolution,
            required: true,
            checked: index === 0,
          }),
          el('label', { for: id }, [t.flagged.resolutions[resolution]]),
        ]);
      }),
    ]),
    field(t.flagged.note, note, t.flagged.noteHint),
    el('div', { class: 'actions' }, [submit]),
    ...feedback.nodes(),
  ]);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const values = formValues(form);
    const resolution = values.resolution as RoundResolution['resolution'];
    const done = await feedback.run(
      t.common.saving,
      () => api.resolveRound(round._id, { resolution, note: values.note ?? '' }),
      { button: submit, region: form },
    );
    if (done) await onResolved(done);
  });
  return form;
}
