import { z } from 'zod';
import { anchorSchema } from '../../schemas/anchor.ts';
import { httpUrl, id, isoTime, statusBody, successStatus } from '../../schemas/common.ts';
import { pageQuery } from '../../schemas/paging.ts';
import { roundSchema } from '../../schemas/round.ts';
import type { WebhookWithToken } from '../../services/webhook-service.ts';
import { type DeliveryRecord, WEBHOOK_EVENTS } from '../../store/records.ts';
import { checkDateOrder, dateRangeFields } from '../date-range.ts';
import { ok, okPage, okStatus } from '../envelope.ts';
import { defineRoute, type RouteDefinition } from '../route.ts';
import type { RouteKit } from '../route-kit.ts';

export const webhookEvent = z.enum(WEBHOOK_EVENTS, 'must be open-round, close-round or anchor').meta({
  id: 'WebhookEvent',
  description:
    'open-round and close-round carry a round; anchor (opt-in) carries each signed audit anchor ' +
    '(docs/audit.md), so the operator keeps its own copy',
});
const deliveryStatus = z.enum(['success', 'failed', 'pending'], 'must be success, failed or pending');

/** §15: how a webhook receives its events; absent, `single` (one event per request, as §7). */
export const webhookDeliverySchema = z
  .object(
    {
      mode: z.enum(['single', 'batch'], 'must be single or batch').meta({
        description:
          'single: one event per request (§7). batch: an event goes out at once, alone, when nothing is in ' +
          'flight; events that come while deliveries are in flight go together in the next request, as ' +
          '`{"events": [{id, event, payload}, …]}`',
      }),
      maxEvents: z
        .number('must be a whole number from 1 to 500')
        .int('must be a whole number from 1 to 500')
        .min(1, 'must be a whole number from 1 to 500')
        .max(500, 'must be a whole number from 1 to 500')
        .default(100)
        .meta({ description: 'Most events in one batch (batch mode); default 100' }),
      maxWaitMs: z
        .number('must be a whole number of milliseconds from 0 to 5000')
        .int('must be a whole number of milliseconds from 0 to 5000')
        .min(0, 'must be a whole number of milliseconds from 0 to 5000')
        .max(5000, 'must be a whole number of milliseconds from 0 to 5000')
        .default(250)
        .meta({
          description: 'Longest an event waits for a batch to fill while others are in flight; default 250',
        }),
    },
    'must be an object: {mode, maxEvents, maxWaitMs}',
  )
  .strict()
  .meta({ id: 'WebhookDeliveryMode' });

export const webhookRegisterBody = z
  .object({
    url: httpUrl.max(2048, 'must be at most 2048 characters').meta({
      description:
        'Destination; http(s) only. Private, loopback and link-local addresses are refused unless the server allows them.',
    }),
    eventTriggers: z
      .array(webhookEvent, 'must be a list of events')
      .min(1, 'must list at least one event')
      .refine((events) => new Set(events).size === events.length, 'must not list an event twice'),
    signatureToken: z
      .uuid('must be a UUID, e.g. 9b2f3c4d-1e5a-4b6c-8d7e-0f1a2b3c4d5e')
      .meta({ description: 'UUID the service signs each delivery with' }),
    delivery: webhookDeliverySchema.optional().meta({
      description: 'How events are sent; absent: single. Fixed once registered (delete and register again)',
    }),
  })
  .meta({ id: 'WebhookCreate' });

export const webhookCreatedSchema = z.object({ webhookId: z.string() }).meta({ id: 'WebhookCreated' });

export const webhookSchema = z
  .object({
    id: z.string(),
    url: z.string().meta({ description: 'As the service normalised it (new URL(url).href)' }),
    eventTriggers: z.array(webhookEvent),
    signatureToken: z.string().meta({ description: 'The UUID given at registration' }),
    status: z.enum(['active', 'disabled']).meta({
      description: 'disabled after a 410 Gone answer or 5 days of failing deliveries',
    }),
    createdAt: isoTime,
    lastTriggered: isoTime
      .nullable()
      .meta({ description: 'Time of the last delivery attempt; null when never' }),
    failureCount: z.number().int().meta({ description: 'Failed delivery attempts (as in its log)' }),
    successCount: z.number().int().meta({ description: 'Successful delivery attempts (as in its log)' }),
    delivery: z
      .object({ mode: z.enum(['single', 'batch']), maxEvents: z.number().int(), maxWaitMs: z.number().int() })
      .meta({ description: 'How its events are sent (docs/webhooks.md, "Batches")' }),
  })
  .meta({ id: 'Webhook' });

export const deliveryLogSchema = z
  .object({
    id: z.string(),
    webhookId: z.string(),
    eventId: z.string().meta({
      description:
        'The event’s id: its `webhook-id` header, the same on every attempt (what redeliver takes)',
    }),
    eventType: webhookEvent,
    payload: z
      .union([roundSchema, anchorSchema])
      .meta({ description: 'The round of a round’s event; the signed anchor of an anchor event' }),
    responseCode: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'HTTP status of the answer; null when none came (time-out, network error)' }),
    responseBody: z.string().meta({ description: 'Start of the answer’s body; empty when none came' }),
    success: z.boolean().meta({ description: 'true for a 2xx answer within the time-out' }),
    duration: z.number().int().meta({ description: 'Milliseconds from sending to the end of the answer' }),
    timestamp: isoTime,
    retryCount: z.number().int().meta({ description: 'Earlier attempts of the same event: 0 for the first' }),
    errorMessage: z.string().nullable(),
    batchId: z.string().nullable().meta({
      description:
        'The request’s own `webhook-id` when the event went in a batch; null for a single delivery',
    }),
  })
  .meta({ id: 'WebhookDeliveryLog' });

export const deliveryPagination = z
  .object({
    pageIndex: z.number().int(),
    pageSize: z.number().int(),
    totalCount: z.number().int().meta({ description: 'Attempts matching the filters' }),
    successCount: z.number().int().meta({ description: 'Successful attempts matching the filters' }),
    failureCount: z.number().int().meta({
      description: 'Failed attempts matching the filters, those waiting for a retry (pending) included',
    }),
  })
  .meta({ id: 'DeliveryPagination' });

export const deliveryQuery = pageQuery
  .extend({
    status: deliveryStatus.optional().meta({
      description: 'success; failed: failed, no retry coming; pending: failed, retry scheduled',
    }),
    ...dateRangeFields,
  })
  .superRefine(checkDateOrder);

const webhookParams = z.object({ webhookId: id });

export const redeliverBody = z
  .object({
    eventId: id.meta({
      description: 'The event to send again: a delivery log row’s eventId (its `webhook-id` header)',
    }),
  })
  .meta({ id: 'WebhookRedeliver' });

function webhookView(webhook: WebhookWithToken): z.infer<typeof webhookSchema> {
  return {
    id: webhook.id,
    url: webhook.url,
    eventTriggers: webhook.eventTriggers,
    signatureToken: webhook.signatureToken,
    status: webhook.status,
    createdAt: webhook.createdAt,
    lastTriggered: webhook.lastTriggered,
    failureCount: webhook.failureCount,
    successCount: webhook.successCount,
    delivery: webhook.delivery,
  };
}

export function deliveryView(delivery: DeliveryRecord): z.input<typeof deliveryLogSchema> {
  return {
    id: delivery.id,
    webhookId: delivery.webhookId,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    payload: delivery.payload as z.input<typeof deliveryLogSchema>['payload'],
    responseCode: delivery.responseCode,
    responseBody: delivery.responseBody,
    success: delivery.success,
    duration: delivery.durationMs,
    timestamp: delivery.timestamp,
    retryCount: delivery.retryCount,
    errorMessage: delivery.errorMessage,
    batchId: delivery.batchId,
  };
}

export function webhookRoutes({ services }: RouteKit): RouteDefinition[] {
  return [
    defineRoute({
      method: 'post',
      path: '/webhook',
      tag: 'Webhooks',
      summary: 'Register a webhook',
      description: 'One live webhook per URL and API client: the same URL again is a 409.',
      auth: 'signed',
      body: webhookRegisterBody,
      success: {
        status: 201,
        schema: z.object({ status: successStatus, data: webhookCreatedSchema }),
      },
      errors: [400, 401, 409, 500],
      handle: async ({ auth, body }) => ok({ webhookId: (await services.webhooks.register(auth, body)).id }),
    }),
    defineRoute({
      method: 'get',
      path: '/webhook',
      tag: 'Webhooks',
      summary: 'List the webhooks of the API client',
      auth: 'bearer',
      success: { status: 200, schema: z.object({ status: successStatus, data: z.array(webhookSchema) }) },
      errors: [401, 500],
      handle: async ({ auth }) => ok((await services.webhooks.list(auth)).map(webhookView)),
    }),
    defineRoute({
      method: 'get',
      path: '/webhook/:webhookId',
      tag: 'Webhooks',
      summary: 'List the delivery log of one webhook',
      description:
        'One row per delivery attempt, newest first. dateStart and dateEnd are whole UTC days, both included. ' +
        'An unknown or deleted webhook, or another API client’s, is the same 404 (docs/contract.md §1).',
      auth: 'bearer',
      params: webhookParams,
      query: deliveryQuery,
      success: {
        status: 200,
        schema: z.object({
          status: successStatus,
          data: z.array(deliveryLogSchema),
          pagination: deliveryPagination,
        }),
      },
      errors: [400, 401, 404, 500],
      handle: async ({ auth, params, query }) => {
        const { pageIndex, pageSize, ...filters } = query;
        const page = await services.webhooks.deliveries(auth, params.webhookId, filters, {
          pageIndex,
          pageSize,
        });
        return okPage(page.items.map(deliveryView), {
          pageIndex,
          pageSize,
          totalCount: page.totalCount,
          successCount: page.successCount,
          failureCount: page.failureCount,
        });
      },
    }),
    defineRoute({
      method: 'post',
      path: '/webhook/:webhookId/redeliver',
      tag: 'Webhooks',
      summary: 'Send an event again',
      description:
        'Sends one of the webhook’s events again now, with the same body and `webhook-id` header as the ' +
        'original (receivers deduplicate on it), and answers the new attempt’s delivery log row once the ' +
        'receiver answered (or the 15 s time-out passed). It is logged and counted like every attempt and ' +
        'not retried if it fails. An unknown or deleted webhook, or another API client’s, is the same ' +
        '404, an event that is not this webhook’s a 404; a disabled webhook, or an event still queued ' +
        '(not yet sent, or waiting for a retry: the queue sends it in its turn), a 409.',
      auth: 'signed',
      params: webhookParams,
      body: redeliverBody,
      success: { status: 200, schema: z.object({ status: successStatus, data: deliveryLogSchema }) },
      errors: [400, 401, 404, 409, 500],
      handle: async ({ auth, params, body }) =>
        ok(deliveryView(await services.webhooks.redeliver(auth, params.webhookId, body.eventId))),
    }),
    defineRoute({
      method: 'delete',
      path: '/webhook/:webhookId',
      tag: 'Webhooks',
      summary: 'Remove a webhook',
      description: 'It stops receiving events and leaves the list; its delivery log is kept for audit.',
      auth: 'bearer',
      params: webhookParams,
      success: { status: 200, schema: statusBody },
      errors: [400, 401, 404, 500],
      handle: async ({ auth, params }) => {
        await services.webhooks.remove(auth, params.webhookId);
        return okStatus();
      },
    }),
  ];
}
