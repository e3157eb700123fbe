import { el, utcTime } from '@raspa/browser-kit';
import type { AuditAnchor } from '@raspa/server/wire';
import { field, formValues, table } from '../ui/blocks.ts';
import type { Page } from '../ui/context.ts';
import { Feedback } from '../ui/feedback.ts';
import { heading } from './auth-pages.ts';

const PAGE_SIZE = 20;

/** A seq the address or the form gives, or 1. */
function seqOf(text: string | null | undefined): number {
  const seq = Number(text);
  return Number.isSafeInteger(seq) && seq >= 1 ? seq : 1;
}

/**
 * The client's signed audit anchors (GET /v1/audit/anchors, docs/audit.md), in seq order from a
 * seq the user picks, a page at a time. The list has no total (anchors only grow), so the pages go
 * by seq: earlier from seq − page size, later from the seq after the last one shown, while a page
 * comes back full.
 */
export const auditPage: Page = (context) => {
  const { api, t, lang } = context;
  const feedback = new Feedback(() => t);
  const list = el('div', { class: 'list' });
  let fromSeq = seqOf(context.query.get('fromSeq'));

  const seqInput = el('input', { name: 'fromSeq', type: 'number', min: 1, step: 1, value: String(fromSeq) });
  const submit = el('button', { type: 'submit' }, [t.audit.show]);
  const form = el('form', { class: 'filters', role: 'search' }, [
    el('div', { class: 'grid' }, [field(t.audit.fromSeq, seqInput)]),
    el('div', { class: 'actions' }, [submit]),
  ]);

  async function load(): Promise<void> {
    const anchors = await feedback.run(t.common.loading, () => api.listAnchors(fromSeq, PAGE_SIZE), {
      region: list,
      button: submit,
    });
    if (!anchors) return;
    seqInput.value = String(fromSeq);
    context.setQuery({ fromSeq: fromSeq > 1 ? String(fromSeq) : '' });
    const go = (seq: number) => {
      fromSeq = seq;
      void load();
    };
    const last = anchors.at(-1)?.seq;
    list.replaceChildren(
      table<AuditAnchor>(
        t.audit.title,
        [
          [t.audit.seq, (anchor) => anchor.seq],
          [t.audit.at, (anchor) => utcTime(anchor.at, lang)],
          [t.audit.count, (anchor) => anchor.count],
          [t.audit.root, (anchor) => el('code', { class: 'wrap' }, [anchor.root])],
          [t.audit.keyId, (anchor) => el('code', {}, [anchor.keyId])],
        ],
        anchors,
        t.audit.none,
      ),
      el('nav', { class: 'pager', 'aria-label': t.audit.title }, [
        el(
          'button',
          {
            type: 'button',
            class: 'secondary',
            disabled: fromSeq <= 1,
            on: { click: () => go(Math.max(1, fromSeq - PAGE_SIZE)) },
          },
          [t.audit.earlier],
        ),
        el('span', {}, [last === undefined ? '' : t.audit.range(fromSeq, last)]),
        el(
          'button',
          {
            type: 'button',
            class: 'secondary',
            disabled: last === undefined || anchors.length < PAGE_SIZE,
            on: { click: () => go((last ?? fromSeq) + 1) },
          },
          [t.audit.later],
        ),
      ]),
    );
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    fromSeq = seqOf(formValues(form).fromSeq);
    void load();
  });
  void load();

  return el('section', {}, [
    heading(t.audit.title),
    el('p', { class: 'lead' }, [t.audit.intro]),
    form,
    ...feedback.nodes(),
    list,
  ]);
};
