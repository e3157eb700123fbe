import { toMajor } from '@raspa/core';
import { z } from 'zod';
import { id, statusBody, successStatus } from '../../schemas/common.ts';
import {
  exclusionBody,
  exclusionSchema,
  type LimitsAnswer,
  limitsBody,
  limitsSchema,
} from '../../schemas/protection.ts';
import type { PlayerLimits } from '../../services/protection-service.ts';
import type { ExclusionRecord } from '../../store/records.ts';
import { ok, okStatus } from '../envelope.ts';
import { defineRoute, type RouteDefinition } from '../route.ts';
import type { RouteKit } from '../route-kit.ts';

const userParams = z.object({ userId: id });
const iso = (ms: number) => new Date(ms).toISOString();

/** The service's limits (minor units, epoch ms) as the API shows them (major units, ISO times). */
export function limitsView(limits: PlayerLimits): LimitsAnswer {
  return {
    limits: limits.limits.map(({ type, period, currency, amount }) => ({
      type,
      period,
      currency,
      amount: toMajor(amount, currency),
    })),
    sessionMinutes: limits.sessionMinutes,
    realityCheckMinutes: limits.realityCheckMinutes,
    usage: limits.limits.map(({ type, period, currency, used, resetAt }) => ({
      type,
      period,
      currency,
      used: toMajor(used, currency),
      resetAt: iso(resetAt),
    })),
    pending: {
      limits: limits.pending.limits.map(({ type, period, currency, value, appliesAt }) => ({
        type,
        period,
        currency,
        amount: value === null ? null : toMajor(value, currency),
        appliesAt: iso(appliesAt),
      })),
      sessionMinutes: limits.pending.sessionMinutes && {
        value: limits.pending.sessionMinutes.value,
        appliesAt: iso(limits.pending.sessionMinutes.appliesAt),
      },
    },
  };
}

const exclusionView = (record: ExclusionRecord) => ({
  reason: record.reason,
  until: record.endsAt,
  createdAt: record.createdAt,
});

const limitsAnswer = z.object({ status: successStatus, data: limitsSchema });
const OWNERSHIP = 'An unknown player, or another API client’s, is the same 404.';

/** A player's limits and exclusion, set by the operator (CONTRACT §13, docs/player-protection.md). */
export function protectionRoutes({ services }: RouteKit): RouteDefinition[] {
  return [
    defineRoute({
      method: 'get',
      path: '/user/:userId/limits',
      tag: 'Player protection',
      summary: 'Read a player’s limits, their usage in the current period, and looser values waiting',
      description:
        'Usage: loss = completed bets − prizes − rollbacks, wager = completed bets, in the ' +
        'current day, week (from Monday) or month of the profile’s time zone. ' +
        OWNERSHIP,
      auth: 'bearer',
      params: userParams,
      success: { status: 200, schema: limitsAnswer },
      errors: [400, 401, 404, 500],
      handle: async ({ auth, params }) =>
        ok(limitsView(await services.protection.limits(auth, params.userId))),
    }),
    defineRoute({
      method: 'put',
      path: '/user/:userId/limits',
      tag: 'Player protection',
      summary: 'Set all of a player’s limits',
      description:
        'Replaces every limit. A stricter value applies at once; a looser one, or a limit left out, ' +
        'applies 24 hours later and is listed under pending until then. Answers the limits as GET does. ' +
        OWNERSHIP,
      auth: 'signed',
      params: userParams,
      body: limitsBody,
      success: { status: 200, schema: limitsAnswer },
      errors: [400, 401, 404, 500],
      handle: async ({ auth, params, body }) =>
        ok(limitsView(await services.protection.setLimits(auth, params.userId, body))),
    }),
    defineRoute({
      method: 'get',
      path: '/user/:userId/exclusion',
      tag: 'Player protection',
      summary: 'Read the exclusion that holds for a player (null: none)',
      description: OWNERSHIP,
      auth: 'bearer',
      params: userParams,
      success: {
        status: 200,
        schema: z.object({ status: successStatus, data: exclusionSchema.nullable() }),
      },
      errors: [400, 401, 404, 500],
      handle: async ({ auth, params }) => {
        const record = await services.protection.exclusion(auth, params.userId);
        return ok(record && exclusionView(record));
      },
    }),
    defineRoute({
      method: 'post',
      path: '/user/:userId/exclusion',
      tag: 'Player protection',
      summary: 'Exclude a player until a time, or indefinitely',
      description:
        'Replaces an earlier exclusion, except that a self exclusion that holds may only be extended by a ' +
        'self exclusion ending no earlier (409). An until already past is a 400. ' +
        OWNERSHIP,
      auth: 'signed',
      params: userParams,
      body: exclusionBody,
      success: { status: 201, schema: z.object({ status: successStatus, data: exclusionSchema }) },
      errors: [400, 401, 404, 409, 500],
      handle: async ({ auth, params, body }) =>
        ok(exclusionView(await services.protection.exclude(auth, params.userId, body))),
    }),
    defineRoute({
      method: 'delete',
      path: '/user/:userId/exclusion',
      tag: 'Player protection',
      summary: 'Lift an operator exclusion',
      description:
        'A self exclusion cannot be lifted before it ends (409); a player not excluded is a 404. ' +
        OWNERSHIP,
      auth: 'bearer',
      params: userParams,
      success: { status: 200, schema: statusBody },
      errors: [400, 401, 404, 409, 500],
      handle: async ({ auth, params }) => {
        await services.protection.lift(auth, params.userId);
        return okStatus();
      },
    }),
  ];
}
