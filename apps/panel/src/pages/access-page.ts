import { el, utcTime } from '@raspa/browser-kit';
import type { AuditEntry } from '@raspa/server/wire';
import { table } from '../ui/blocks.ts';
import type { Page, PageContext } from '../ui/context.ts';
import { copyField } from '../ui/copy-field.ts';
import { Feedback } from '../ui/feedback.ts';
import { pagedList } from '../ui/pager.ts';
import { heading } from './auth-pages.ts';

const PAGE_SIZE = 25;

/**
 * Rotating the apiKey: a form whose checkbox states what happens (the old key stops at once), then the
 * new key, shown this once with a copy button. `rotated` runs after (the audit log has a new entry).
 */
function rotateKeyForm(context: PageContext, rotated: () => void): HTMLElement {
  const { api, t } = context;
  const feedback = new Feedback(() => t);
  const result = el('div');
  const submit = el('button', { type: 'submit', class: 'danger' }, [t.access.rotate]);
  const form = el('form', {}, [
    el('div', { class: 'check' }, [
      el('input', { type: 'checkbox', id: 'rotate-understood', name: 'understood', required: true }),
      el('label', { for: 'rotate-understood' }, [t.access.understood]),
    ]),
    el('div', { class: 'actions' }, [submit]),
  ]);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const answer = await feedback.run(t.common.saving, () => api.rotateKey(), {
      button: submit,
      region: form,
    });
    if (!answer) return;
    form.reset();
    const key = copyField({ id: 'new-api-key', label: t.access.newKey, value: answer.apiKey, t, feedback });
    result.replaceChildren(
      el('div', { class: 'notice shown-once' }, [
        el('p', {}, [el('strong', {}, [t.access.shownOnce])]),
        key.node,
      ]),
    );
    feedback.say(t.access.rotated);
    key.focus();
    rotated();
  });
  return el('section', { class: 'card', 'aria-label': t.access.rotateTitle }, [
    el('h2', {}, [t.access.rotateTitle]),
    el('p', { class: 'warning' }, [t.access.warning]),
    form,
    ...feedback.nodes(),
    result,
  ]);
}

export const accessPage: Page = (context) => {
  const { t, lang } = context;
  const feedback = new Feedback(() => t);
  const list = el('div', { class: 'list' });
  const audit = pagedList({
    t,
    feedback,
    list,
    label: t.access.auditTitle,
    pageIndex: Number(context.query.get('pageIndex')) || 1,
    fetch: (pageIndex) => context.api.listAudit({ pageIndex, pageSize: PAGE_SIZE }),
    loaded: (_page, pageIndex) =>
      context.setQuery({ pageIndex: pageIndex > 1 ? String(pageIndex) : undefined }),
    render: (page) =>
      table<AuditEntry>(
        t.access.auditTitle,
        [
          [t.access.at, (entry) => utcTime(entry.at, lang)],
          [t.access.actor, (entry) => t.access.actors[entry.actor]],
          [t.access.operation, (entry) => el('code', {}, [entry.operation])],
          [t.access.target, (entry) => (entry.targetId ? el('code', {}, [entry.targetId]) : '—')],
          [t.access.ip, (entry) => entry.ip],
        ],
        page.items,
        t.common.none,
      ),
  });
  void audit.load();
  return el('section', {}, [
    heading(t.access.title),
    rotateKeyForm(context, () => void audit.first()),
    el('section', { class: 'card', 'aria-label': t.access.auditTitle }, [
      el('h2', {}, [t.access.auditTitle]),
      el('p', { class: 'hint' }, [t.access.auditIntro]),
      ...feedback.nodes(),
      list,
    ]),
  ]);
};
