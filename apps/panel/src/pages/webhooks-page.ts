import { el, utcTime } from '@raspa/browser-kit';
import type { DeliveryQuery, Webhook, WebhookEvent } from '@raspa/server/wire';
import { field, formValues, select, table } from '../ui/blocks.ts';
import type { Page, PageContext } from '../ui/context.ts';
import { Feedback } from '../ui/feedback.ts';
import { pagedList } from '../ui/pager.ts';
import { heading } from './auth-pages.ts';
import { deliveryTable } from './delivery-table.ts';

/** The round events are ticked for a new webhook; `anchor` is opt-in (docs/audit.md). */
const EVENTS: readonly WebhookEvent[] = ['open-round', 'close-round', 'anchor'];
const PAGE_SIZE = 20;

/** The delivery log of one webhook, with its status and date filters and its paging. */
function deliveryLog(context: PageContext, webhook: Webhook): HTMLElement {
  const { api, t } = context;
  const feedback = new Feedback(() => t);
  const list = el('div', { class: 'list' });
  const counts = el('p', { class: 'hint' });
  const submit = el('button', { type: 'submit' }, [t.common.apply]);
  const form = el('form', { class: 'filters', role: 'search' }, [
    el('div', { class: 'grid' }, [
      field(
        t.common.status,
        select('status', [
          ['', t.common.any],
          ...(['success', 'failed', 'pending'] as const).map(
            (status) => [status, t.webhooks.statuses[status]] as const,
          ),
        ]),
      ),
      field(t.common.dateStart, el('input', { name: 'dateStart', type: 'date' })),
      field(t.common.dateEnd, el('input', { name: 'dateEnd', type: 'date' })),
    ]),
    el('div', { class: 'actions' }, [submit]),
  ]);
  /** The filters of the form, as the delivery log's query. */
  const query = (pageIndex: number): DeliveryQuery => {
    const values = formValues(form);
    return {
      pageIndex,
      pageSize: PAGE_SIZE,
      ...(values.status && { status: values.status as NonNullable<DeliveryQuery['status']> }),
      ...(values.dateStart && { dateStart: values.dateStart }),
      ...(values.dateEnd && { dateEnd: values.dateEnd }),
    };
  };
  const deliveries = pagedList({
    t,
    feedback,
    list,
    button: submit,
    label: t.webhooks.log,
    fetch: (pageIndex) => api.listDeliveries(webhook.id, query(pageIndex)),
    loaded: (page) => {
      counts.textContent = t.webhooks.counts(page.pagination.successCount, page.pagination.failureCount);
    },
    render: (page): Node =>
      deliveryTable(context, t.webhooks.logOf(webhook.url), page.items, feedback, () => deliveries.load()),
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void deliveries.first();
  });
  void deliveries.load();
  const title = el('h2', { tabindex: -1 }, [t.webhooks.logOf(webhook.url)]);
  queueMicrotask(() => title.focus());
  return el('section', { class: 'card' }, [title, form, counts, ...feedback.nodes(), list]);
}

export const webhooksPage: Page = (context) => {
  const { api, t, lang } = context;
  const feedback = new Feedback(() => t);
  const formFeedback = new Feedback(() => t);
  const list = el('div', { class: 'list' });
  const logSlot = el('div');

  const secret = el('input', {
    name: 'signatureToken',
    required: true,
    autocomplete: 'off',
    spellcheck: false,
    value: crypto.randomUUID(),
  });
  const submit = el('button', { type: 'submit' }, [t.webhooks.create]);
  const form = el('form', { class: 'card' }, [
    el('h2', {}, [t.webhooks.createTitle]),
    el('div', { class: 'grid' }, [
      field(
        t.webhooks.url,
        el('input', {
          name: 'url',
          type: 'url',
          required: true,
          autocomplete: 'off',
          placeholder: 'https://example.com/raspa/events',
        }),
      ),
      el('fieldset', {}, [
        el('legend', {}, [t.webhooks.events]),
        ...EVENTS.map((event) =>
          el('div', { class: 'check' }, [
            el('input', {
              type: 'checkbox',
              name: `event-${event}`,
              id: `event-${event}`,
              checked: event !== 'anchor',
            }),
            el('label', { for: `event-${event}` }, [event === 'anchor' ? t.webhooks.anchorHint : event]),
          ]),
        ),
      ]),
      field(
        t.webhooks.delivery,
        select('deliveryMode', [
          ['single', t.webhooks.deliveryModes.single],
          ['batch', t.webhooks.deliveryModes.batch],
        ]),
      ),
      el('div', {}, [
        field(t.webhooks.secret, secret),
        el(
          'button',
          {
            type: 'button',
            class: 'secondary',
            on: {
              click: () => {
                secret.value = crypto.randomUUID();
              },
            },
          },
          [t.webhooks.generate],
        ),
      ]),
    ]),
    el('div', { class: 'actions' }, [submit]),
    ...formFeedback.nodes(),
  ]);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const values = formValues(form);
    const body = {
      url: values.url ?? '',
      eventTriggers: EVENTS.filter((name) => values[`event-${name}`] === 'on'),
      signatureToken: values.signatureToken ?? '',
      // Only a batch webhook says so: a single one is registered as before batches existed.
      ...(values.deliveryMode === 'batch' && { delivery: { mode: 'batch' as const } }),
    };
    const created = await formFeedback.run(t.common.saving, () => api.createWebhook(body), {
      button: submit,
      region: form,
    });
    if (!created) return;
    form.reset();
    secret.value = crypto.randomUUID();
    formFeedback.say(t.webhooks.created);
    await load();
  });

  async function remove(webhook: Webhook, button: HTMLButtonElement) {
    if (!window.confirm(t.webhooks.confirmDelete(webhook.url))) return;
    const done = await feedback.run(t.common.saving, () => api.deleteWebhook(webhook.id).then(() => true), {
      button,
    });
    if (!done) return;
    logSlot.replaceChildren();
    await load();
    feedback.say(t.webhooks.deleted);
  }

  async function load() {
    const webhooks = await feedback.run(t.common.loading, () => api.listWebhooks(), { region: list });
    if (!webhooks) return;
    list.replaceChildren(
      table<Webhook>(
        t.webhooks.title,
        [
          [t.webhooks.url, (webhook) => el('strong', { class: 'wrap' }, [webhook.url])],
          [t.webhooks.events, (webhook) => webhook.eventTriggers.join(', ')],
          [
            t.webhooks.delivery,
            (webhook) =>
              webhook.delivery.mode === 'batch'
                ? t.webhooks.batchLimits(webhook.delivery.maxEvents, webhook.delivery.maxWaitMs)
                : t.webhooks.deliveryModes.single,
          ],
          [
            t.common.status,
            (webhook) =>
              el('span', { class: `badge ${webhook.status === 'active' ? 'on' : 'off'}` }, [webhook.status]),
          ],
          [t.webhooks.successes, (webhook) => webhook.successCount],
          [t.webhooks.failures, (webhook) => webhook.failureCount],
          [t.webhooks.lastTriggered, (webhook) => utcTime(webhook.lastTriggered, lang)],
          [t.common.created, (webhook) => utcTime(webhook.createdAt, lang)],
          [
            t.common.actions,
            (webhook) => {
              const logButton = el(
                'button',
                { type: 'button', class: 'secondary', 'aria-label': t.webhooks.logOf(webhook.url) },
                [t.webhooks.log],
              );
              logButton.addEventListener('click', () =>
                logSlot.replaceChildren(deliveryLog(context, webhook)),
              );
              const deleteButton = el(
                'button',
                { type: 'button', class: 'danger', 'aria-label': `${t.common.delete}: ${webhook.url}` },
                [t.common.delete],
              );
              deleteButton.addEventListener('click', () => void remove(webhook, deleteButton));
              return el('div', { class: 'row-actions' }, [logButton, deleteButton]);
            },
          ],
        ],
        webhooks,
        t.common.none,
      ),
    );
    // The overview links a failing webhook here with its id: open its log at once.
    const wanted = webhooks.find((webhook) => webhook.id === context.query.get('webhookId'));
    if (wanted && !logSlot.hasChildNodes()) logSlot.replaceChildren(deliveryLog(context, wanted));
  }
  void load();

  return el('section', {}, [
    heading(t.webhooks.title),
    el('p', { class: 'lead' }, [t.webhooks.intro]),
    ...feedback.nodes(),
    list,
    logSlot,
    form,
  ]);
};
