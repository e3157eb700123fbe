import { el, utcTime } from '@raspa/browser-kit';
import type { Delivery } from '@raspa/server/wire';
import { table } from '../ui/blocks.ts';
import type { PageContext } from '../ui/context.ts';
import type { Feedback } from '../ui/feedback.ts';
import { shortId } from '../ui/short-id.ts';
import { roundLink } from './round-link.ts';

/** What a delivery attempt's answer was, in words: the status code, or why none came. */
export function answerText(delivery: Delivery, context: PageContext): string {
  return delivery.responseCode === null ? context.t.webhooks.noAnswer : String(delivery.responseCode);
}

/**
 * Delivery attempts (a webhook's log, or a round's events), each with a button that sends its event
 * again (POST /v1/webhook/{webhookId}/redeliver): the same body and webhook-id header, so receivers
 * that deduplicate see it once. `resent` runs after a re-send (e.g. to reload the list).
 */
export function deliveryTable(
  context: PageContext,
  caption: string,
  deliveries: readonly Delivery[],
  feedback: Feedback,
  resent: () => void | Promise<void>,
): HTMLElement {
  const { api, t, lang } = context;
  async function resend(delivery: Delivery, button: HTMLButtonElement) {
    const attempt = await feedback.run(
      t.webhooks.resending,
      () => api.redeliver(delivery.webhookId, delivery.eventId),
      {
        button,
      },
    );
    if (!attempt) return;
    await resent();
    feedback.say(
      attempt.success
        ? t.webhooks.resent(delivery.eventType, answerText(attempt, context))
        : t.webhooks.resentFailed(delivery.eventType, attempt.errorMessage ?? answerText(attempt, context)),
    );
  }
  return table<Delivery>(
    caption,
    [
      [t.webhooks.lastTriggered, (delivery) => utcTime(delivery.timestamp, lang)],
      [t.webhooks.event, (delivery) => delivery.eventType],
      [
        t.rounds.id,
        (delivery) => {
          const { payload } = delivery;
          return '_id' in payload ? roundLink(context, payload._id) : t.webhooks.anchorOf(payload.seq);
        },
      ],
      [
        t.common.status,
        (delivery) =>
          el('span', { class: `badge ${delivery.success ? 'on' : 'off'}` }, [
            delivery.success ? t.webhooks.statuses.success : t.webhooks.statuses.failed,
          ]),
      ],
      [t.webhooks.responseCode, (delivery) => answerText(delivery, context)],
      [t.webhooks.duration, (delivery) => delivery.duration],
      [t.webhooks.retry, (delivery) => delivery.retryCount + 1],
      [t.webhooks.error, (delivery) => el('span', { class: 'wrap' }, [delivery.errorMessage ?? ''])],
      [t.webhooks.eventId, (delivery) => shortId(delivery.eventId)],
      [
        t.common.actions,
        (delivery) => {
          const button = el(
            'button',
            {
              type: 'button',
              class: 'secondary',
              'aria-label':
                '_id' in delivery.payload
                  ? t.webhooks.resendLabel(delivery.eventType, delivery.payload._id)
                  : t.webhooks.resendAnchorLabel(delivery.payload.seq),
            },
            [t.webhooks.resend],
          );
          button.addEventListener('click', () => void resend(delivery, button));
          return button;
        },
      ],
    ],
    deliveries,
    t.common.none,
  );
}
