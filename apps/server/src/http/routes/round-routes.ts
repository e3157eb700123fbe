import { cardSchema, replayRoundSchema, toMajor } from '@raspa/core';
import { z } from 'zod';
import { id, isoTime, successStatus } from '../../schemas/common.ts';
import { pageOf, pageQuery } from '../../schemas/paging.ts';
import { roundListItem, roundListView } from '../../schemas/round.ts';
import { ApiError } from '../../services/api-error.ts';
import type { RoundDossier } from '../../services/round-service.ts';
import { ok, okPage } from '../envelope.ts';
import { defineRoute, type RouteDefinition } from '../route.ts';
import type { RouteKit } from '../route-kit.ts';
import { deliveryLogSchema, deliveryView } from './webhook-routes.ts';

export const resolutionSchema = z
  .object({
    resolution: z.enum(['paid', 'written-off']),
    note: z.string(),
    resolvedAt: isoTime,
  })
  .meta({ id: 'RoundResolution' });

export const walletAttemptSchema = z
  .object({
    transactionId: z.string(),
    type: z.string().meta({ description: 'bet, prize or rollback' }),
    attempt: z.number().int().meta({ description: '1 for the call’s first attempt' }),
    sentAt: isoTime,
    duration: z.number().int().meta({ description: 'Milliseconds until the answer (or the failure)' }),
    outcome: z.enum(['ok', 'declined', 'unknown']).meta({
      description:
        'ok: a definite yes; declined: a definite no (4xx with a code); unknown: no definite answer',
    }),
    httpStatus: z.number().int().nullable().meta({ description: 'The status of a decline; null otherwise' }),
    balance: z.number().nullable().meta({ description: 'The balance a yes reported, in major units' }),
    detail: z
      .string()
      .nullable()
      .meta({ description: 'The decline’s code and message, or why no answer came' }),
  })
  .meta({ id: 'WalletCallAttempt' });

export const ticketSchema = z
  .object({
    poolId: z.string(),
    poolNumber: z.number().int().nullable(),
    commitment: z
      .string()
      .nullable()
      .meta({ description: 'SHA-256 of the pool’s seed, published when it started' }),
    seed: z.string().nullable().meta({ description: 'The pool’s seed, published once the pool ended' }),
    drawIndex: z.number().int().nullable(),
    level: z.number().int().nullable().meta({ description: '0 for a losing ticket, 1–8 the prize level' }),
  })
  .meta({ id: 'RoundTicket' });

export const roundDossierSchema = roundListItem
  .extend({
    gameModel: z.string().nullable(),
    currency: z.string(),
    flagged: z.boolean().meta({ description: 'Flagged for reconciliation and not yet resolved' }),
    resolution: resolutionSchema.nullable(),
    card: cardSchema.nullable().meta({
      description:
        'The card as the game page draws it (the game model’s layout from @raspa/core); null before a ticket',
    }),
    ticket: ticketSchema.nullable(),
    prizeLevels: z
      .array(z.object({ level: z.number().int(), prize: z.number() }).meta({ id: 'PrizeLevel' }))
      .meta({
        description:
          'The prize of each level of its game’s ladder (major units), level 1 the smallest: what the card’s prize spots stand for',
      }),
    walletCalls: z
      .array(walletAttemptSchema)
      .meta({ description: 'Every attempt of every wallet call, oldest first' }),
    deliveries: z.array(deliveryLogSchema).meta({
      description: 'Every webhook delivery attempt of the round’s events, oldest first',
    }),
  })
  .meta({ id: 'RoundDetail' });

export function roundDossierView(dossier: RoundDossier): z.input<typeof roundDossierSchema> {
  const { round, detail, game, pool } = dossier;
  const typeOf = new Map(detail.transactions.map((t) => [t.id, t.type]));
  return {
    ...roundListView(detail),
    gameModel: game?.gameModel ?? null,
    currency: round.currency,
    flagged: round.reconciliation,
    resolution: dossier.resolution
      ? {
          resolution: dossier.resolution.resolution,
          note: dossier.resolution.note,
          resolvedAt: dossier.resolution.resolvedAt,
        }
      : null,
    card: round.cardJson === null ? null : JSON.parse(round.cardJson),
    ticket:
      round.poolId === null
        ? null
        : {
            poolId: round.poolId,
            poolNumber: pool?.number ?? null,
            commitment: pool?.commitment ?? null,
            seed: pool?.seedHex ?? null,
            drawIndex: round.drawIndex,
            level: round.level,
          },
    prizeLevels: (game?.ladder.levels ?? []).map((each) => ({
      level: each.level,
      prize: toMajor(each.prize, game?.currency ?? round.currency),
    })),
    walletCalls: dossier.walletAttempts.map((attempt) => ({
      transactionId: attempt.transactionId,
      type: typeOf.get(attempt.transactionId) ?? 'unknown',
      attempt: attempt.attempt,
      sentAt: attempt.sentAt,
      duration: attempt.durationMs,
      outcome: attempt.outcome,
      httpStatus: attempt.httpStatus,
      balance: attempt.balanceMinor === null ? null : toMajor(attempt.balanceMinor, round.currency),
      detail: attempt.detail,
    })),
    deliveries: dossier.deliveries.map(deliveryView),
  };
}

/**
 * The public replay data (`GET /v1/replay/{token}`): the card, the prize, the price and currency,
 * the game model that draws the card, the status and the times. Read by whoever holds the link, so
 * nothing of the player, the wallet or the webhook receiver: those stay in GET /v1/round/{roundId}.
 */
export const replayDataSchema = replayRoundSchema.meta({
  id: 'ReplayRound',
  description:
    'A round as its replay link shows it: only what support needs to see the card. The player, ' +
    'the transactions, the wallet calls and the webhook deliveries are in GET /v1/round/{roundId}.',
});

/** Picks the replay's fields one by one: a field added to the round details never leaks into it. */
export function replayDataView(dossier: RoundDossier): z.input<typeof replayDataSchema> {
  const view = roundDossierView(dossier);
  return {
    _id: view._id,
    status: view.status,
    currency: view.currency,
    paidPrice: view.paidPrice,
    prize: view.prize,
    createdAt: view.createdAt,
    endAt: view.endAt,
    gameModel: view.gameModel,
    card: view.card,
    prizeLevels: view.prizeLevels,
  };
}

const roundParams = z.object({ roundId: id });

export const resolveBody = z
  .object({
    resolution: z.enum(['paid', 'written-off'], 'must be paid or written-off').meta({
      description: 'paid: the operator paid (or returned) the money by hand; written-off: nobody will',
    }),
    note: z
      .string('must be a string')
      .trim()
      .min(1, 'must not be empty')
      .max(1000, 'must be at most 1000 characters')
      .meta({ description: 'What was done, for the audit trail' }),
  })
  .meta({ id: 'ResolveRound' });

export const replayLinkSchema = z
  .object({
    url: z.string().meta({ description: 'The replay page: /replay/{token}' }),
    dataUrl: z.string().meta({ description: 'The round as JSON: /v1/replay/{token}' }),
    expireAt: isoTime,
  })
  .meta({ id: 'ReplayLink' });

const replayToken = z.object({ token: z.string().min(1).max(2000) });

export function roundRoutes({ services, settings }: RouteKit): RouteDefinition[] {
  return [
    defineRoute({
      method: 'get',
      path: '/round/:roundId',
      tag: 'Back office',
      summary: 'One round with its card, ticket, wallet calls and webhook deliveries',
      description: 'An unknown round, or another API client’s, is the same 404.',
      auth: 'bearer',
      params: roundParams,
      success: { status: 200, schema: z.object({ status: successStatus, data: roundDossierSchema }) },
      errors: [400, 401, 404, 500],
      handle: async ({ auth, params }) =>
        ok(roundDossierView(await services.rounds.detail(auth, params.roundId))),
    }),
    defineRoute({
      method: 'get',
      path: '/reconciliation',
      tag: 'Back office',
      summary: 'List the rounds flagged for reconciliation',
      description:
        'Rounds the service could not settle by itself (a prize given up after its retries, a rollback ' +
        'the wallet declined: docs/reconciliation.md), newest first, until resolved.',
      auth: 'bearer',
      query: pageQuery,
      success: { status: 200, schema: pageOf(roundListItem) },
      errors: [400, 401, 500],
      handle: async ({ auth, query }) => {
        const page = await services.rounds.flagged(auth, query);
        return okPage(page.items.map(roundListView), { ...query, totalCount: page.totalCount });
      },
    }),
    defineRoute({
      method: 'post',
      path: '/round/:roundId/resolve',
      tag: 'Back office',
      summary: 'Close a round flagged for reconciliation',
      description:
        'After the operator settled it by hand. The round leaves the reconciliation list; a round that is ' +
        'not flagged (or already resolved) is a 409, nothing changed.',
      auth: 'signed',
      params: roundParams,
      body: resolveBody,
      success: { status: 200, schema: z.object({ status: successStatus, data: resolutionSchema }) },
      errors: [400, 401, 404, 409, 500],
      handle: async ({ auth, params, body }) => {
        const { resolution, note, resolvedAt } = await services.rounds.resolve(auth, params.roundId, body);
        return ok({ resolution, note, resolvedAt });
      },
    }),
    defineRoute({
      method: 'post',
      path: '/round/:roundId/replay',
      tag: 'Back office',
      summary: 'A short-lived read-only link to a round, for customer support',
      description:
        'Anyone holding the link sees that round until expireAt (REPLAY_TTL, 15 minutes by default): `url` ' +
        'is a read-only page that draws its card, scratched, with the player’s page’s own renderer, its ' +
        'prize and times (in `?lang=pt|en|es`, else the game’s language); `dataUrl` answers what the page ' +
        'draws as JSON: the card, the prize, the price, the status and the times, nothing of the player, ' +
        'the wallet or the webhooks (those stay in GET /v1/round/{roundId}). After expireAt the page says ' +
        'the link has expired and `dataUrl` is a 404.',
      auth: 'signed',
      params: roundParams,
      body: z.object({}).meta({ id: 'ReplayRequest' }),
      success: {
        status: 201,
        schema: z.object({
          status: successStatus,
          data: replayLinkSchema,
        }),
      },
      errors: [401, 404, 500],
      handle: async ({ auth, params }) => {
        const { token, expireAt } = await services.rounds.issueReplay(auth, params.roundId);
        const path = encodeURIComponent(token);
        return ok({
          url: `${settings.publicUrl}/replay/${path}`,
          dataUrl: `${settings.publicUrl}/v1/replay/${path}`,
          expireAt,
        });
      },
    }),
    defineRoute({
      method: 'get',
      path: '/replay/:token',
      tag: 'Back office',
      summary: 'Read a round through its replay link',
      description:
        'The data behind the replay page (the `dataUrl` of POST /v1/round/{roundId}/replay). No token ' +
        'needed: the link is the credential, so it answers only what the page draws (no player, balances, ' +
        'wallet calls or webhook deliveries). Unknown, altered or expired links are a 404.',
      auth: 'none',
      params: replayToken,
      success: { status: 200, schema: z.object({ status: successStatus, data: replayDataSchema }) },
      errors: [404, 500],
      handle: async ({ params, response }) => {
        const dossier = await services.rounds.replay(params.token);
        if (!dossier) throw new ApiError('NOT_FOUND', 'this replay link is unknown or has expired');
        response.set('Cache-Control', 'no-store');
        return ok(replayDataView(dossier));
      },
    }),
  ];
}
