import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAnsweredAsUnknown } from './as-unknown.ts';
import { startTestServer, type TestServer, type TokenSet } from './harness.ts';
import { type LedgerFixtures, ledgerFixtures, type Seat } from './ledger-fixtures.ts';

/**
 * The operator's API for a player's limits and exclusion (CONTRACT §13, docs/player-protection.md),
 * over real HTTP on either database. The ledger is written as the play loop writes it
 * (ledger-fixtures.ts); the clock is the test's (starts 2026-03-01T12:00Z, a Sunday).
 */
let server: TestServer;
let tokens: TokenSet;
let clientId: string;
let other: TokenSet;
let ledger: LedgerFixtures;
const apiKeys = { mine: '', other: '' };

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

beforeAll(async () => {
  server = await startTestServer();
  let apiKey: string;
  ({ tokens, clientId, apiKey } = await server.newClient());
  apiKeys.mine = apiKey;
  ({ tokens: other, apiKey } = await server.newClient('Other operator'));
  apiKeys.other = apiKey;
  ledger = ledgerFixtures(server);
});
afterAll(async () => {
  await server.close();
});

const limitsOf = (seat: Seat, token = tokens) =>
  server.call('GET', `/v1/user/${seat.playerId}/limits`, { token });
const putLimits = (seat: Seat, body: unknown, headers: Record<string, string> = {}) =>
  server.call('PUT', `/v1/user/${seat.playerId}/limits`, { token: tokens, body, headers });
const exclusionOf = (seat: Seat) =>
  server.call('GET', `/v1/user/${seat.playerId}/exclusion`, { token: tokens });
const exclude = (seat: Seat, body: unknown) =>
  server.call('POST', `/v1/user/${seat.playerId}/exclusion`, { token: tokens, body });
const lift = (seat: Seat) => server.call('DELETE', `/v1/user/${seat.playerId}/exclusion`, { token: tokens });
const iso = (ms: number) => new Date(ms).toISOString();

const logIn = async (apiKey: string): Promise<TokenSet> =>
  (await server.call('POST', '/v1/auth/login', { body: { apiKey } })).body.data;

/** Moves the test clock (by ms, or to a time), and logs in again: a token set lives 2 hours. */
async function moveClock(to: number | string): Promise<void> {
  if (typeof to === 'number') server.clock.advance(to);
  else server.clock.set(new Date(to));
  tokens = await logIn(apiKeys.mine);
  other = await logIn(apiKeys.other);
}
const now = () => server.clock().getTime();

async function inZone(seat: Seat, timezone: string): Promise<void> {
  const profile = await server.deps.store.profiles.findById(seat.profileId);
  if (!profile) throw new Error('no profile');
  await server.deps.store.profiles.update({ ...profile, timezone });
}

describe('the profile’s protection fields', () => {
  it('are set on create (the zone spelt as Intl does), default to none and UTC, and change on update', async () => {
    const created = await server.call('POST', '/v1/profile', {
      token: tokens,
      body: {
        name: 'Casa BR',
        type: 'demo',
        jurisdiction: 'BR',
        timezone: 'america/sao_paulo',
        realityCheckMinutes: 60,
        responsibleGamingUrl: 'https://casa.example/jogo-responsavel',
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      jurisdiction: 'BR',
      timezone: 'America/Sao_Paulo',
      realityCheckMinutes: 60,
      responsibleGamingUrl: 'https://casa.example/jogo-responsavel',
    });
    const { profileId } = created.body.data;
    const plain = await server.call('POST', '/v1/profile', {
      token: tokens,
      body: { name: 'Plain', type: 'demo' },
    });
    expect(plain.body.data).toMatchObject({
      jurisdiction: null,
      timezone: 'UTC',
      realityCheckMinutes: null,
      responsibleGamingUrl: null,
    });

    const bad = await server.call('PUT', `/v1/profile/${profileId}`, {
      token: tokens,
      body: { jurisdiction: 'FR', timezone: 'Mars/Olympus', realityCheckMinutes: 0 },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.messages).toEqual([
      expect.stringMatching(/^jurisdiction: /),
      expect.stringMatching(/^timezone: /),
      expect.stringMatching(/^realityCheckMinutes: /),
    ]);
    const changed = await server.call('PUT', `/v1/profile/${profileId}`, {
      token: tokens,
      body: { jurisdiction: 'GB', timezone: 'Europe/London', realityCheckMinutes: null },
    });
    expect(changed.status).toBe(200);
    const read = await server.call('GET', `/v1/profile/${profileId}`, { token: tokens });
    expect(read.body.data).toMatchObject({
      jurisdiction: 'GB',
      timezone: 'Europe/London',
      realityCheckMinutes: null,
      responsibleGamingUrl: 'https://casa.example/jogo-responsavel',
    });
  });
});

describe('PUT and GET /v1/user/{userId}/limits', () => {
  it('answers no limits for a player without any', async () => {
    const seat = await ledger.seat(clientId);
    const answer = await limitsOf(seat);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      status: 'success',
      data: {
        limits: [],
        sessionMinutes: null,
        realityCheckMinutes: null,
        usage: [],
        pending: { limits: [], sessionMinutes: null },
      },
    });
  });

  it('applies a first limit, and any lowering, at once; a raise or a removal waits 24 hours', async () => {
    const seat = await ledger.seat(clientId);
    const loss = (amount: number) => ({ type: 'loss', period: 'day', currency: 'BRL', amount });
    const first = await putLimits(seat, { limits: [loss(100)], sessionMinutes: 60, realityCheckMinutes: 30 });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({
      limits: [loss(100)],
      sessionMinutes: 60,
      realityCheckMinutes: 30,
      pending: { limits: [], sessionMinutes: null },
    });

    expect((await putLimits(seat, { limits: [loss(50)], sessionMinutes: 30 })).body.data).toMatchObject({
      limits: [loss(50)],
      sessionMinutes: 30,
      realityCheckMinutes: null,
    });

    const askedAt = now();
    const raised = await putLimits(seat, { limits: [loss(80)], sessionMinutes: null });
    const waiting = {
      limits: [loss(50)],
      sessionMinutes: 30,
      pending: {
        limits: [{ ...loss(80), amount: 80, appliesAt: iso(askedAt + DAY) }],
        sessionMinutes: { value: null, appliesAt: iso(askedAt + DAY) },
      },
    };
    expect(raised.body.data).toMatchObject(waiting);
    await moveClock(DAY - 1);
    expect((await limitsOf(seat)).body.data).toMatchObject(waiting);
    await moveClock(1);
    expect((await limitsOf(seat)).body.data).toMatchObject({
      limits: [loss(80)],
      sessionMinutes: null,
      pending: { limits: [], sessionMinutes: null },
    });

    // A limit left out is removed only after 24 hours as well.
    const removedAt = now();
    expect((await putLimits(seat, { limits: [] })).body.data).toMatchObject({
      limits: [loss(80)],
      pending: { limits: [{ ...loss(80), amount: null, appliesAt: iso(removedAt + DAY) }] },
    });
    await moveClock(DAY);
    expect((await limitsOf(seat)).body.data.limits).toEqual([]);
  });

  it('counts usage in the current day, week and month of the profile’s time zone, and resets it then', async () => {
    const seat = await ledger.seat(clientId, { betMinor: 500 });
    await inZone(seat, 'America/Sao_Paulo'); // UTC−3: the local day began at 03:00Z
    await moveClock('2026-03-01T12:00:00.000Z'); // Sunday 09:00 in São Paulo
    // Saturday 23:30 local: yesterday, last month, but this week (from Monday 23 February).
    await ledger.round(seat, { at: '2026-03-01T02:30:00.000Z' });
    // Sunday 00:30 local: a card that won 2.00, and one whose bet was refunded (voided).
    await ledger.round(seat, { at: '2026-03-01T03:30:00.000Z', prizeMinor: 200 });
    await ledger.round(seat, { at: '2026-03-01T03:40:00.000Z', outcome: 'voided' });
    const limits = [
      { type: 'loss', period: 'day', currency: 'BRL', amount: 100 },
      { type: 'wager', period: 'day', currency: 'BRL', amount: 100 },
      { type: 'loss', period: 'week', currency: 'BRL', amount: 100 },
      { type: 'wager', period: 'month', currency: 'BRL', amount: 100 },
      { type: 'loss', period: 'day', currency: 'USD', amount: 100 },
    ];
    const answer = await putLimits(seat, { limits });
    expect(answer.status).toBe(200);
    const reset = {
      day: '2026-03-02T03:00:00.000Z',
      week: '2026-03-02T03:00:00.000Z',
      month: '2026-04-01T03:00:00.000Z',
    };
    // loss = bets − prizes − rollbacks; wager = bets, the voided card's refunded bet included (CONTRACT §13).
    const expected = [
      { type: 'loss', period: 'day', currency: 'BRL', used: 5 - 2 + 5 - 5, resetAt: reset.day },
      { type: 'wager', period: 'day', currency: 'BRL', used: 5 + 5, resetAt: reset.day },
      { type: 'loss', period: 'week', currency: 'BRL', used: 5 + 3, resetAt: reset.week },
      { type: 'wager', period: 'month', currency: 'BRL', used: 5 + 5, resetAt: reset.month },
      { type: 'loss', period: 'day', currency: 'USD', used: 0, resetAt: reset.day },
    ];
    const byKey = (u: { type: string; period: string; currency: string }) =>
      `${u.type}:${u.period}:${u.currency}`;
    const sorted = (list: any[]) => [...list].sort((a, b) => (byKey(a) < byKey(b) ? -1 : 1));
    expect(sorted(answer.body.data.usage)).toEqual(sorted(expected));
    expect(sorted((await limitsOf(seat)).body.data.usage)).toEqual(sorted(expected));

    // At the local midnight the day's usage starts again from zero; the week's does not.
    await moveClock(reset.day);
    const usage = sorted((await limitsOf(seat)).body.data.usage);
    expect(usage.map((u) => [byKey(u), u.used])).toEqual([
      ['loss:day:BRL', 0],
      ['loss:day:USD', 0],
      ['loss:week:BRL', 0],
      ['wager:day:BRL', 0],
      ['wager:month:BRL', 5 + 5],
    ]);
  });

  it('changes nothing on bad input, and answers each bad field', async () => {
    const seat = await ledger.seat(clientId);
    await putLimits(seat, { limits: [{ type: 'loss', period: 'day', currency: 'BRL', amount: 10 }] });
    const before = (await limitsOf(seat)).body;
    const bad = await putLimits(seat, {
      limits: [
        { type: 'loss', period: 'day', currency: 'BRL', amount: 10.001 },
        { type: 'win', period: 'year', currency: 'BRL', amount: 1 },
      ],
      sessionMinutes: 0,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_ERROR');
    expect(bad.body.messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^limits\.0\.amount: /),
        expect.stringMatching(/^limits\.1\.type: /),
        expect.stringMatching(/^sessionMinutes: /),
      ]),
    );
    const repeated = await putLimits(seat, {
      limits: [
        { type: 'loss', period: 'day', currency: 'BRL', amount: 1 },
        { type: 'loss', period: 'day', currency: 'BRL', amount: 2 },
      ],
    });
    expect(repeated.status).toBe(400);
    const unsigned = await server.call('PUT', `/v1/user/${seat.playerId}/limits`, {
      token: tokens,
      body: { limits: [] },
      sign: false,
    });
    expect(unsigned.status).toBe(401);
    expect(unsigned.body.code).toBe('INVALID_SIGNATURE');
    expect((await limitsOf(seat)).body).toEqual(before);
  });

  it('refuses a limit in a currency the profile’s wallet does not take', async () => {
    const seat = await ledger.seat(clientId);
    const profile = await server.deps.store.profiles.findById(seat.profileId);
    if (!profile) throw new Error('no profile');
    await server.deps.store.profiles.update({ ...profile, currencies: ['BRL'] });
    const answer = await putLimits(seat, {
      limits: [{ type: 'wager', period: 'week', currency: 'USD', amount: 5 }],
    });
    expect(answer.status).toBe(400);
    expect(answer.body.messages).toEqual([expect.stringMatching(/^limits\.0\.currency: USD is not one/)]);
    expect((await limitsOf(seat)).body.data.limits).toEqual([]);
  });

  it('answers 404 for an unknown player, and the same for another API client’s, on every route', async () => {
    const seat = await ledger.seat(clientId);
    for (const [method, path, body] of [
      ['GET', 'limits', undefined],
      ['PUT', 'limits', { limits: [] }],
      ['POST', 'exclusion', { until: null, reason: 'operator' }],
      ['DELETE', 'exclusion', undefined],
      ['GET', 'exclusion', undefined],
    ] as const) {
      const unknown = await server.call(method, `/v1/user/no-such-player/${path}`, { token: tokens, body });
      expect(unknown.body, `${method} ${path}`).toEqual({
        status: 'error',
        code: 'NOT_FOUND',
        messages: ['user no-such-player was not found'],
      });
      const theirs = await server.call(method, `/v1/user/${seat.playerId}/${path}`, { token: other, body });
      expectAnsweredAsUnknown(theirs, unknown, { theirs: seat.playerId, unknown: 'no-such-player' });
    }
    expect((await exclusionOf(seat)).body.data).toBeNull();
  });

  it('replays an answer for a repeated Idempotency-Key, and audits each change once', async () => {
    const seat = await ledger.seat(clientId);
    const body = { limits: [{ type: 'loss', period: 'month', currency: 'BRL', amount: 300 }] };
    const key = { 'Idempotency-Key': `limits-${seat.playerId}` };
    const first = await putLimits(seat, body, key);
    const again = await putLimits(seat, body, key);
    expect(again.status).toBe(200);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    await exclude(seat, { until: null, reason: 'operator' });
    await lift(seat);
    const audit = await server.call('GET', '/v1/audit?pageSize=100', { token: tokens });
    const mine = audit.body.data.filter((entry: { targetId: string }) => entry.targetId === seat.playerId);
    expect(mine.map((entry: { operation: string }) => entry.operation).sort()).toEqual([
      'DELETE /v1/user/:userId/exclusion',
      'POST /v1/user/:userId/exclusion',
      'PUT /v1/user/:userId/limits',
    ]);
  });
});

describe('POST, GET and DELETE /v1/user/{userId}/exclusion', () => {
  it('excludes until a time; an operator exclusion is lifted, and ends by itself at until', async () => {
    const seat = await ledger.seat(clientId);
    const until = iso(now() + HOUR);
    const created = await exclude(seat, { until: until.replace('Z', '+00:00'), reason: 'operator' });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({ reason: 'operator', until, createdAt: iso(now()) });
    expect((await exclusionOf(seat)).body.data).toEqual(created.body.data);
    expect((await lift(seat)).status).toBe(200);
    expect((await exclusionOf(seat)).body.data).toBeNull();
    const again = await lift(seat);
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('NOT_FOUND');

    await exclude(seat, { until, reason: 'operator' });
    await moveClock(HOUR);
    expect((await exclusionOf(seat)).body.data).toBeNull();
    expect((await lift(seat)).status).toBe(404);
  });

  it('never lifts or shortens a self exclusion before it ends; it may be extended', async () => {
    const seat = await ledger.seat(clientId);
    const week = iso(now() + 7 * DAY);
    expect((await exclude(seat, { until: week, reason: 'self' })).status).toBe(201);
    const lifted = await lift(seat);
    expect(lifted.status).toBe(409);
    expect(lifted.body.code).toBe('CONFLICT');
    expect((await exclude(seat, { until: null, reason: 'operator' })).status).toBe(409);
    expect((await exclude(seat, { until: iso(now() + DAY), reason: 'self' })).status).toBe(409);
    expect((await exclusionOf(seat)).body.data).toMatchObject({ reason: 'self', until: week });
    const longer = await exclude(seat, { until: null, reason: 'self' });
    expect(longer.status).toBe(201);
    expect((await exclusionOf(seat)).body.data).toMatchObject({ reason: 'self', until: null });
  });

  it('refuses an until already past and a bad body, changing nothing', async () => {
    const seat = await ledger.seat(clientId);
    const past = await exclude(seat, { until: iso(now()), reason: 'operator' });
    expect(past.status).toBe(400);
    expect(past.body.messages).toEqual(['until must be in the future']);
    const bad = await exclude(seat, { until: 'tomorrow', reason: 'whim' });
    expect(bad.status).toBe(400);
    expect(bad.body.messages).toEqual([
      expect.stringMatching(/^until: /),
      expect.stringMatching(/^reason: /),
    ]);
    expect((await exclusionOf(seat)).body.data).toBeNull();
  });
});

describe('POST /v1/game/session for an excluded player', () => {
  it('is refused with 403 PLAYER_EXCLUDED while the exclusion holds, and starts again once it is lifted', async () => {
    const profile = await server.call('POST', '/v1/profile', {
      token: tokens,
      body: { name: 'Sessions', type: 'demo' },
    });
    const profileId: string = profile.body.data.profileId;
    const game = await server.call('POST', '/v1/game', {
      token: tokens,
      body: {
        profileId,
        gameModel: 'oxe-ganhei',
        lang: 'pt',
        currency: 'BRL',
        rtp: 0.9,
        sampling: 200_000,
        prizedPercent: 0.3,
        betPrice: 2,
        simulation: false,
        replacePreviousVersion: false,
      },
    });
    const login = await server.call('POST', '/v1/user/auth', {
      token: tokens,
      body: { profileId, credential: 'excluded-player', credentialType: 'username' },
    });
    const { userId, userToken } = login.body.data;
    const start = () =>
      server.call('POST', '/v1/game/session', {
        token: tokens,
        body: { userToken, gameId: game.body.data.id },
      });
    const until = iso(now() + HOUR);
    await server.call('POST', `/v1/user/${userId}/exclusion`, {
      token: tokens,
      body: { until, reason: 'operator' },
    });
    const refused = await start();
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      status: 'error',
      code: 'PLAYER_EXCLUDED',
      messages: [`the player is excluded from play until ${until}`],
    });
    await server.call('DELETE', `/v1/user/${userId}/exclusion`, { token: tokens });
    expect((await start()).status).toBe(201);
  });
});

describe('the OpenAPI document', () => {
  it('carries the operations and their shapes', async () => {
    const document = (await server.call('GET', '/v1/openapi.json')).body;
    expect(Object.keys(document.paths['/v1/user/{userId}/limits']).sort()).toEqual(['get', 'put']);
    expect(Object.keys(document.paths['/v1/user/{userId}/exclusion']).sort()).toEqual([
      'delete',
      'get',
      'post',
    ]);
    for (const name of [
      'Limits',
      'LimitsUpdate',
      'LimitUsage',
      'PendingLimit',
      'Exclusion',
      'ExclusionCreate',
    ])
      expect(document.components.schemas, name).toHaveProperty(name);
    expect(document.components.schemas.Profile.properties).toHaveProperty('timezone');
  });
});
