import { el } from '@raspa/browser-kit';
import type { Catalogue } from '../i18n/en.ts';
import type { Feedback } from './feedback.ts';

/**
 * A value to hand on (a new apiKey, a replay link): a labelled read-only field, selected for the
 * keyboard's copy, and a Copy button that says when it is done.
 */
export function copyField(options: {
  id: string;
  label: string;
  value: string;
  t: Catalogue;
  feedback: Feedback;
  extra?: HTMLElement[];
}): { node: HTMLElement; focus: () => void } {
  const { id, label, value, t, feedback } = options;
  const input = el('input', { id, readonly: true, value, spellcheck: false });
  const copy = el('button', { type: 'button', class: 'secondary' }, [t.round.copy]);
  copy.addEventListener('click', async () => {
    input.select();
    await navigator.clipboard?.writeText(value).catch(() => undefined);
    feedback.say(t.round.copied);
  });
  return {
    node: el('div', {}, [
      el('div', { class: 'field' }, [el('label', { for: id }, [label]), input]),
      el('div', { class: 'actions' }, [copy, ...(options.extra ?? [])]),
    ]),
    focus: () => {
      input.focus();
      input.select();
    },
  };
}
