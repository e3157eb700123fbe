import { type Deps, isoNow } from '../deps.ts';
import type { PageRequest } from '../store/paging.ts';
import type { DeliveryStatus, WebhookEvent, WebhookRecord } from '../store/records.ts';
import type { Repositories } from '../store/store.ts';
import { ApiError } from './api-error.ts';
import type { AuthContext } from './auth-context.ts';
import { dayBounds } from './day-bounds.ts';
import { outboundPolicy, requireOutboundUrl } from './outbound-check.ts';
import { owned } from './ownership.ts';

export interface WebhookInput {
  url: string;
  eventTriggers: WebhookEvent[];
  signatureToken: string;
}

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
 * reads the delivery log and removes.
 */
export function createWebhookService(deps: Deps) {
  const { store } = deps;
  const policy = outboundPolicy(deps);

  /** A live webhook of the caller: unknown or deleted is 404, another client's 403. */
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
