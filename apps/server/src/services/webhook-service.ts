import { isoNow } from '../clock.ts';
import type { Deps } from '../deps.ts';
import type { PageRequest } from '../store/paging.ts';
import type {
  DeliveryRecord,
  DeliveryStatus,
  WebhookDelivery,
  WebhookEvent,
  WebhookRecord,
} from '../store/records.ts';
import type { Repositories } from '../store/store.ts';
import { openTarget } from '../webhooks/attempt.ts';
import type { ResendEvent } from '../webhooks/resend.ts';
import { ApiError } from './api-error.ts';
import type { AuthContext } from './auth-context.ts';
import { dayBounds } from './day-bounds.ts';
import { outboundPolicy, requireOutboundUrl } from './outbound-check.ts';
import { owned } from './ownership.ts';

export interface WebhookInput {
  url: string;
  eventTriggers: WebhookEvent[];
  signatureToken: string;
  /** Absent: single (§7). */
  delivery?: WebhookDelivery | undefined;
}

/** A webhook registered without `delivery`: one event per request, as before batches existed. */
export const SINGLE_DELIVERY: WebhookDelivery = { mode: 'single', maxEvents: 100, maxWaitMs: 250 };

export interface DeliveryQuery {
  status?: DeliveryStatus | undefined;
  dateStart?: string | undefined;
  dateEnd?: string | undefined;
}

/** A webhook as its owner sees it: the signatureToken opened. */
export interface WebhookWithToken extends WebhookRecord {
  signatureToken: string;
}

/**
 * The webhook registry (docs/contract.md §7). Sending is the dispatcher's job; this registers, lists,
 * reads the delivery log, removes, and has an event sent again at a person's request (`resend`, the
 * dispatcher's; absent, redeliver answers 500).
 */
export function createWebhookService(deps: Deps, sending: { resend?: ResendEvent } = {}) {
  const { store } = deps;
  const policy = outboundPolicy(deps);

  /** A live webhook of the caller: unknown, deleted or another client's is 404. */
  async function liveOwned(
    repos: Pick<Repositories, 'webhooks'>,
    auth: AuthContext,
    webhookId: string,
  ): Promise<WebhookRecord> {
    const found = await repos.webhooks.findById(webhookId);
    return owned(found?.deletedAt === null ? found : undefined, auth.clientId, `webhook ${webhookId}`);
  }

  return {
    async register(auth: AuthContext, input: WebhookInput): Promise<WebhookRecord> {
      const url = new URL(input.url).href;
      await requireOutboundUrl(policy, 'url', url);
      return store.transaction(async (tx) => {
        const existing = await tx.webhooks.findLiveByUrl(auth.clientId, url);
        if (existing) {
          throw new ApiError(
            'CONFLICT',
            `a webhook for ${url} is already registered (webhookId ${existing.id})`,
          );
        }
        const webhook: WebhookRecord = {
          id: deps.newId(),
          clientId: auth.clientId,
          url,
          eventTriggers: input.eventTriggers,
          tokenSealed: deps.secrets.seal(input.signatureToken),
          status: 'active',
          createdAt: isoNow(deps),
          lastTriggered: null,
          successCount: 0,
          failureCount: 0,
          delivery: input.delivery ?? SINGLE_DELIVERY,
          deletedAt: null,
        };
        await tx.webhooks.insert(webhook);
        return webhook;
      });
    },

    async list(auth: AuthContext): Promise<WebhookWithToken[]> {
      const webhooks = await store.webhooks.listLiveByClient(auth.clientId);
      return webhooks.map((webhook) => ({
        ...webhook,
        signatureToken: deps.secrets.open(webhook.tokenSealed),
      }));
    },

    async deliveries(auth: AuthContext, webhookId: string, query: DeliveryQuery, page: PageRequest) {
      await liveOwned(store, auth, webhookId);
      return store.webhooks.listDeliveries(
        webhookId,
        { status: query.status ?? null, ...dayBounds(query) },
        page,
      );
    },

    /**
     * Sends one of the webhook's events again now (docs/contract.md §11): a new attempt in its log,
     * with the event's own webhook-id. An event still in the queue (not yet sent, or waiting for a
     * retry) is the queue's to send, in its order: a 409, as is a disabled webhook.
     */
    async redeliver(auth: AuthContext, webhookId: string, eventId: string): Promise<DeliveryRecord> {
      const webhook = await liveOwned(store, auth, webhookId);
      const event = await store.outbox.findById(eventId);
      if (!event || event.webhookId !== webhookId) {
        throw new ApiError('NOT_FOUND', `event ${eventId} is not an event of webhook ${webhookId}`);
      }
      if (webhook.status !== 'active') {
        throw new ApiError(
          'CONFLICT',
          `webhook ${webhookId} is disabled (after a 410 Gone or days of failures): register its url again to receive events`,
        );
      }
      if (event.status === 'queued') {
        throw new ApiError(
          'CONFLICT',
          `event ${eventId} is still queued for delivery (next attempt at ${event.nextAttemptAt}): it is sent in its turn`,
        );
      }
      if (!sending.resend) throw new Error('the webhook service was built without a sender');
      return sending.resend(openTarget(deps.secrets, webhook), event, store);
    },

    /** Soft delete: it stops receiving events and leaves the list; its delivery log is kept for audit. */
    async remove(auth: AuthContext, webhookId: string): Promise<void> {
      await store.transaction(async (tx) => {
        await liveOwned(tx, auth, webhookId);
        await tx.webhooks.softDelete(webhookId, isoNow(deps));
      });
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
