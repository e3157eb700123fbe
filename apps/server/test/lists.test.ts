import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAnsweredAsUnknown } from './as-unknown.ts';
import { startTestServer, type TestServer, type TokenSet } from './harness.ts';
import { type LedgerFixtures, ledgerFixtures, type Seat, type WrittenRound } from './ledger-fixtures.ts';

let server: TestServer;
let fixtures: LedgerFixtures;
let mine: TokenSet;
let theirs: TokenSet;
let ana: Seat; // BRL, bet 12.50
let bia: Seat; // BRL, same profile as ana
let kenji: Seat; // JPY, bet 500
let fahad: Seat; // KWD, bet 1.005
let other: Seat; // another API client
const r: Record<string, WrittenRound> = {};
let otherRound: WrittenRound;

beforeAll(async () => {
  server = await startTestServer();
  fixtures = ledgerFixtures(server);
  const a = await server.newClient('Casa A');
  const b = await server.newClient('Casa B');
  mine = a.tokens;
  theirs = b.tokens;
  ana = await fixtures.seat(a.clientId, {
    currency: 'BRL',
    betMinor: 1250,
    credential: 'ana@example.test',
    balanceMinor: 100_000,
  });
  bia = await fixtures.addPlayer(ana, 'bia@example.test', 50_000);
  kenji = await fixtures.seat(a.clientId, {
    currency: 'JPY',
    betMinor: 500,
    credential: 'kenji@example.test',
    balanceMinor: 10_000,
  });
  fahad = await fixtures.seat(a.clientId, {
    currency: 'KWD',
    betMinor: 1005,
    credential: 'fahad@example.test',
    balanceMinor: 20_000,
  });
  other = await fixtures.seat(b.clientId, { credential: 'zoe@example.test' });
  r.r1 = await fixtures.round(ana, { at: '2026-02-27T23:59:59.999Z', prizeMinor: 2500 });
  r.r2 = await fixtures.round(ana, { at: '2026-02-28T00:00:00.000Z' });
  r.r3 = await fixtures.round(bia, { at: '2026-02-28T12:00:00.000Z', prizeMinor: 125 });
  r.r4 = await fixtures.round(ana, { at: '2026-02-28T23:59:59.999Z', prizeMinor: 1250 });
  r.r5 = await fixtures.round(kenji, { at: '2026-03-01T00:00:00.000Z', prizeMinor: 1500 });
  r.r6 = await fixtures.round(fahad, { at: '2026-03-01T08:00:00.000Z', prizeMinor: 2010 });
  r.r7 = await fixtures.round(bia, { at: '2026-03-01T09:00:00.000Z', outcome: 'voided' });
  r.r8 = await fixtures.round(ana, { at: '2026-03-01T10:00:00.000Z', outcome: 'open' });
  otherRound = await fixtures.round(other, { at: '2026-02-28T10:00:00.000Z', prizeMinor: 500 });
});
afterAll(async () => {
  await server.close();
});

const get = (path: string, token: TokenSet | null = mine) => server.call('GET', path, { token });
const ids = (answer: { body: { data: { _id: string }[] } }) => answer.body.data.map((item) => item._id);
const bet = (name: string) => r[name]?.betId as string;
const settle = (name: string) => r[name]?.settleId as string;
const round = (name: string) => r[name]?.roundId as string;

/** Every transaction of client A, newest first (prizes and rollbacks land 2 s after their bet). */
const ALL_TRANSACTIONS = () => [
  bet('r8'), // 03-01 10:00:00.000
  settle('r7'), // 03-01 09:00:02.000 rollback
  bet('r7'),
  settle('r6'), // 03-01 08:00:02.000
  bet('r6'),
  settle('r5'), // 03-01 00:00:02.000
  settle('r4'), // 03-01 00:00:01.999
  bet('r5'), // 03-01 00:00:00.000
  bet('r4'), // 02-28 23:59:59.999
  settle('r3'),
  bet('r3'),
  settle('r1'), // 02-28 00:00:01.999
  bet('r2'), // 02-28 00:00:00.000
  bet('r1'), // 02-27 23:59:59.999
];
const ALL_ROUNDS = () => ['r8', 'r7', 'r6', 'r5', 'r4', 'r3', 'r2', 'r1'].map(round);

describe('GET /v1/transaction', () => {
  it('lists the caller’s transactions newest first, with exact BRL amounts', async () => {
    const answer = await get('/v1/transaction?pageSize=100');
    expect(answer.status).toBe(200);
    expect(ids(answer)).toEqual(ALL_TRANSACTIONS());
    expect(answer.body.pagination).toEqual({ pageIndex: 1, pageSize: 100, totalCount: 14 });
    const byId = new Map(answer.body.data.map((item: { _id: string }) => [item._id, item]));
    expect(byId.get(bet('r1'))).toEqual({
      _id: bet('r1'),
      amount: -12.5,
      type: 'bet',
      currency: 'BRL',
      balanceBefore: 1000,
      balanceAfter: 987.5,
      status: 'completed',
      roundId: round('r1'),
      userId: ana.playerId,
      profileId: ana.profileId,
      createdAt: '2026-02-27T23:59:59.999Z',
    });
    expect(byId.get(settle('r1'))).toEqual({
      _id: settle('r1'),
      amount: 25,
      type: 'prize',
      currency: 'BRL',
      balanceBefore: 987.5,
      balanceAfter: 1012.5,
      status: 'completed',
      roundId: round('r1'),
      userId: ana.playerId,
      profileId: ana.profileId,
      createdAt: '2026-02-28T00:00:01.999Z',
    });
    expect(byId.get(settle('r7'))).toMatchObject({ type: 'rollback', amount: 12.5, balanceAfter: 488.75 });
  });

  it('converts JPY (no decimals) and KWD (three decimals) exactly', async () => {
    const yen = await get(`/v1/transaction?profileId=${kenji.profileId}`);
    expect(yen.body.data).toMatchObject([
      { _id: settle('r5'), amount: 1500, currency: 'JPY', balanceBefore: 9500, balanceAfter: 11_000 },
      { _id: bet('r5'), amount: -500, currency: 'JPY', balanceBefore: 10_000, balanceAfter: 9500 },
    ]);
    const dinar = await get(`/v1/transaction?profileId=${fahad.profileId}`);
    expect(dinar.body.data).toMatchObject([
      { _id: settle('r6'), amount: 2.01, currency: 'KWD', balanceBefore: 18.995, balanceAfter: 21.005 },
      { _id: bet('r6'), amount: -1.005, currency: 'KWD', balanceBefore: 20, balanceAfter: 18.995 },
    ]);
  });

  it.each([
    ['profileId', () => `profileId=${kenji.profileId}`, () => [settle('r5'), bet('r5')]],
    ['userId', () => `userId=${bia.playerId}`, () => [settle('r7'), bet('r7'), settle('r3'), bet('r3')]],
    ['roundId', () => `roundId=${round('r1')}`, () => [settle('r1'), bet('r1')]],
    ['type=prize', () => 'type=prize', () => ['r6', 'r5', 'r4', 'r3', 'r1'].map(settle)],
    ['type=rollback', () => 'type=rollback', () => [settle('r7')]],
    ['type=deposit', () => 'type=deposit', () => []],
    [
      'dateStart (from 00:00:00.000 of that day)',
      () => 'dateStart=2026-03-01',
      () => ALL_TRANSACTIONS().slice(0, 8),
    ],
    [
      'dateEnd (through 23:59:59.999 of that day)',
      () => 'dateEnd=2026-02-28',
      () => ALL_TRANSACTIONS().slice(8),
    ],
    ['one day', () => 'dateStart=2026-02-28&dateEnd=2026-02-28', () => ALL_TRANSACTIONS().slice(8, 13)],
    ['a day with nothing', () => 'dateStart=2026-02-01&dateEnd=2026-02-26', () => []],
    [
      'all filters combined',
      () =>
        `profileId=${ana.profileId}&userId=${ana.playerId}&type=prize&dateStart=2026-02-28&dateEnd=2026-02-28`,
      () => [settle('r1')],
    ],
    [
      'a user of another profile of mine',
      () => `profileId=${kenji.profileId}&userId=${ana.playerId}`,
      () => [],
    ],
  ])('filters by %s', async (_name, query, expected) => {
    const answer = await get(`/v1/transaction?pageSize=100&${query()}`);
    expect(answer.status).toBe(200);
    expect(ids(answer)).toEqual(expected());
    expect(answer.body.pagination.totalCount).toBe(expected().length);
  });

  it('counts bets: every round has exactly one', async () => {
    const bets = await get('/v1/transaction?type=bet&pageSize=100');
    expect(ids(bets)).toEqual(['r8', 'r7', 'r6', 'r5', 'r4', 'r3', 'r2', 'r1'].map(bet));
    expect(bets.body.data.every((item: { amount: number }) => item.amount < 0)).toBe(true);
  });

  it('pages with pageSize 1 through the same order, and past the last page', async () => {
    const seen: string[] = [];
    for (let pageIndex = 1; pageIndex <= 14; pageIndex++) {
      const page = await get(`/v1/transaction?pageSize=1&pageIndex=${pageIndex}`);
      expect(page.body.pagination).toEqual({ pageIndex, pageSize: 1, totalCount: 14 });
      seen.push(...ids(page));
    }
    expect(seen).toEqual(ALL_TRANSACTIONS());
    const beyond = await get('/v1/transaction?pageSize=1&pageIndex=15');
    expect(beyond.body).toEqual({
      status: 'success',
      data: [],
      pagination: { pageIndex: 15, pageSize: 1, totalCount: 14 },
    });
    const defaults = await get('/v1/transaction');
    expect(defaults.body.pagination).toEqual({ pageIndex: 1, pageSize: 20, totalCount: 14 });
    const second = await get('/v1/transaction?pageSize=100&pageIndex=2');
    expect(second.body).toMatchObject({
      data: [],
      pagination: { pageIndex: 2, pageSize: 100, totalCount: 14 },
    });
  });
});

describe('GET /v1/round', () => {
  it('lists the caller’s rounds newest first, each with its transactions', async () => {
    const answer = await get('/v1/round?pageSize=100');
    expect(answer.status).toBe(200);
    expect(ids(answer)).toEqual(ALL_ROUNDS());
    expect(answer.body.pagination).toEqual({ pageIndex: 1, pageSize: 100, totalCount: 8 });
    const byId = new Map(answer.body.data.map((item: { _id: string }) => [item._id, item]));
    // ana: 1000 − 12.5 + 25 (r1) − 12.5 (r2) − 12.5 + 12.5 (r4) − 12.5 (r8, open) = 987.5
    const anaNow = {
      _id: ana.playerId,
      credential: 'ana@example.test',
      credentialType: 'email',
      balance: 987.5,
      betWins: 2,
      totalBets: 4,
    };
    expect(byId.get(round('r1'))).toEqual({
      _id: round('r1'),
      user: anaNow,
      prize: 25,
      paidPrice: 12.5,
      status: 'closed',
      transactions: [
        {
          _id: bet('r1'),
          amount: -12.5,
          type: 'bet',
          currency: 'BRL',
          balanceBefore: 1000,
          balanceAfter: 987.5,
          status: 'completed',
        },
        {
          _id: settle('r1'),
          amount: 25,
          type: 'prize',
          currency: 'BRL',
          balanceBefore: 987.5,
          balanceAfter: 1012.5,
          status: 'completed',
        },
      ],
      createdAt: '2026-02-27T23:59:59.999Z',
      endAt: '2026-02-28T00:00:01.999Z',
      promotionId: null,
      profileId: ana.profileId,
      gameId: ana.gameId,
    });
    expect(byId.get(round('r2'))).toMatchObject({
      prize: 0,
      status: 'closed',
      transactions: [{ _id: bet('r2') }],
    });
    expect(byId.get(round('r8'))).toMatchObject({
      status: 'open',
      endAt: null,
      prize: 0,
      transactions: [{ type: 'bet' }],
    });
    expect(byId.get(round('r7'))).toMatchObject({
      status: 'voided',
      user: { _id: bia.playerId, balance: 488.75, totalBets: 2, betWins: 1 },
      transactions: [
        { type: 'bet', amount: -12.5 },
        { type: 'rollback', amount: 12.5 },
      ],
    });
  });

  it('converts JPY and KWD rounds exactly', async () => {
    const yen = await get(`/v1/round?profileId=${kenji.profileId}`);
    expect(yen.body.data).toMatchObject([
      { _id: round('r5'), paidPrice: 500, prize: 1500, user: { balance: 11_000 }, gameId: kenji.gameId },
    ]);
    const dinar = await get(`/v1/round?profileId=${fahad.profileId}`);
    expect(dinar.body.data).toEqual([
      {
        _id: round('r6'),
        user: {
          _id: fahad.playerId,
          credential: 'fahad@example.test',
          credentialType: 'email',
          balance: 21.005,
          betWins: 1,
          totalBets: 1,
        },
        prize: 2.01,
        paidPrice: 1.005,
        status: 'closed',
        transactions: [
          {
            _id: bet('r6'),
            amount: -1.005,
            type: 'bet',
            currency: 'KWD',
            balanceBefore: 20,
            balanceAfter: 18.995,
            status: 'completed',
          },
          {
            _id: settle('r6'),
            amount: 2.01,
            type: 'prize',
            currency: 'KWD',
            balanceBefore: 18.995,
            balanceAfter: 21.005,
            status: 'completed',
          },
        ],
        createdAt: '2026-03-01T08:00:00.000Z',
        endAt: '2026-03-01T08:00:02.000Z',
        promotionId: null,
        profileId: fahad.profileId,
        gameId: fahad.gameId,
      },
    ]);
  });

  it.each([
    ['profileId', () => `profileId=${ana.profileId}`, () => ['r8', 'r7', 'r4', 'r3', 'r2', 'r1']],
    ['userId', () => `userId=${bia.playerId}`, () => ['r7', 'r3']],
    ['roundId', () => `roundId=${round('r3')}`, () => ['r3']],
    ['type=bet (every round)', () => 'type=bet', () => ['r8', 'r7', 'r6', 'r5', 'r4', 'r3', 'r2', 'r1']],
    ['type=prize (rounds that paid one)', () => 'type=prize', () => ['r6', 'r5', 'r4', 'r3', 'r1']],
    ['type=rollback (voided rounds)', () => 'type=rollback', () => ['r7']],
    ['type=deposit', () => 'type=deposit', () => []],
    ['dateStart', () => 'dateStart=2026-03-01', () => ['r8', 'r7', 'r6', 'r5']],
    ['dateEnd, with a round at 23:59:59.999', () => 'dateEnd=2026-02-28', () => ['r4', 'r3', 'r2', 'r1']],
    ['one day', () => 'dateStart=2026-02-28&dateEnd=2026-02-28', () => ['r4', 'r3', 'r2']],
    ['the day before', () => 'dateStart=2026-02-27&dateEnd=2026-02-27', () => ['r1']],
    [
      'all filters combined (a round counts by when it started)',
      () =>
        `profileId=${ana.profileId}&userId=${ana.playerId}&type=prize&dateStart=2026-02-28&dateEnd=2026-02-28`,
      () => ['r4'],
    ],
    ['a round of another user', () => `roundId=${round('r3')}&userId=${ana.playerId}`, () => []],
  ])('filters by %s', async (_name, query, expected) => {
    const answer = await get(`/v1/round?pageSize=100&${query()}`);
    expect(answer.status).toBe(200);
    expect(ids(answer)).toEqual(expected().map(round));
    expect(answer.body.pagination.totalCount).toBe(expected().length);
  });

  it('pages with pageSize 1 and 3, and past the last page', async () => {
    const seen: string[] = [];
    for (let pageIndex = 1; pageIndex <= 8; pageIndex++) {
      seen.push(...ids(await get(`/v1/round?pageSize=1&pageIndex=${pageIndex}`)));
    }
    expect(seen).toEqual(ALL_ROUNDS());
    const third = await get('/v1/round?pageSize=3&pageIndex=3');
    expect(ids(third)).toEqual(['r2', 'r1'].map(round));
    expect(third.body.pagination).toEqual({ pageIndex: 3, pageSize: 3, totalCount: 8 });
    expect(third.body.data[0].transactions).toHaveLength(1);
    const beyond = await get('/v1/round?pageSize=3&pageIndex=4');
    expect(beyond.body).toEqual({
      status: 'success',
      data: [],
      pagination: { pageIndex: 4, pageSize: 3, totalCount: 8 },
    });
  });
});

describe('status filter', () => {
  // A client of its own, so the lists above keep their totals: one round of each outcome.
  let casa: TokenSet;
  const c: Record<string, WrittenRound> = {};
  beforeAll(async () => {
    const client = await server.newClient('Casa C');
    casa = client.tokens;
    const seat = await fixtures.seat(client.clientId, { credential: 'caio@example.test' });
    c.won = await fixtures.round(seat, { at: '2026-04-01T10:00:00.000Z', prizeMinor: 1000 });
    c.lost = await fixtures.round(seat, { at: '2026-04-01T11:00:00.000Z' });
    c.voided = await fixtures.round(seat, { at: '2026-04-01T12:00:00.000Z', outcome: 'voided' });
    c.declined = await fixtures.round(seat, { at: '2026-04-01T13:00:00.000Z', outcome: 'declined' });
    c.open = await fixtures.round(seat, { at: '2026-04-02T10:00:00.000Z', outcome: 'open' });
  });
  const of = (name: string) => c[name] as WrittenRound;

  it.each([
    ['closed', 'status=closed', () => [of('lost'), of('won')]],
    ['open', 'status=open', () => [of('open')]],
    ['voided', 'status=voided', () => [of('voided')]],
    ['declined', 'status=declined', () => [of('declined')]],
    ['pending (none)', 'status=pending', () => []],
    ['closing (none)', 'status=closing', () => []],
    ['closed, with type (the rounds that paid a prize)', 'status=closed&type=prize', () => [of('won')]],
    [
      'closed, with a date',
      'status=closed&dateStart=2026-04-01&dateEnd=2026-04-01',
      () => [of('lost'), of('won')],
    ],
    ['open, on a day without one', 'status=open&dateEnd=2026-04-01', () => []],
  ])('keeps the rounds %s', async (_name, query, expected) => {
    const answer = await get(`/v1/round?pageSize=100&${query}`, casa);
    expect(answer.status).toBe(200);
    expect(ids(answer)).toEqual(expected().map((written) => written.roundId));
    expect(
      answer.body.data.every((item: { status: string }) => item.status === query.slice(7).split('&')[0]),
    ).toBe(true);
    expect(answer.body.pagination.totalCount).toBe(expected().length);
  });

  it.each([
    [
      'completed',
      'status=completed',
      () => [
        of('open').betId,
        of('voided').settleId,
        of('voided').betId,
        of('lost').betId,
        of('won').settleId,
        of('won').betId,
      ],
    ],
    ['declined', 'status=declined', () => [of('declined').betId]],
    ['pending (none)', 'status=pending', () => []],
    ['failed (none)', 'status=failed', () => []],
    ['completed, with type', 'status=completed&type=rollback', () => [of('voided').settleId]],
    ['declined, with a day without one', 'status=declined&dateStart=2026-04-02', () => []],
  ])('keeps the transactions %s', async (_name, query, expected) => {
    const answer = await get(`/v1/transaction?pageSize=100&${query}`, casa);
    expect(answer.status).toBe(200);
    expect(ids(answer)).toEqual(expected());
    expect(answer.body.pagination.totalCount).toBe(expected().length);
  });

  it('pages through a status, one record a page', async () => {
    const first = await get('/v1/round?status=closed&pageSize=1&pageIndex=1', casa);
    const second = await get('/v1/round?status=closed&pageSize=1&pageIndex=2', casa);
    expect([...ids(first), ...ids(second)]).toEqual([of('lost').roundId, of('won').roundId]);
    expect(second.body.pagination).toEqual({ pageIndex: 2, pageSize: 1, totalCount: 2 });
  });

  it.each([
    ['/v1/round', 'status=completed', 'status: must be pending, open, closing, closed, declined or voided'],
    ['/v1/round', 'status=flagged', 'status: must be pending, open, closing, closed, declined or voided'],
    ['/v1/transaction', 'status=closed', 'status: must be pending, completed, declined or failed'],
    ['/v1/transaction', 'status=', 'status: must be pending, completed, declined or failed'],
    [
      '/v1/transaction',
      'status=completed&status=failed',
      'status: must be pending, completed, declined or failed',
    ],
  ])('%s refuses %s: only the statuses of that list', async (path, query, message) => {
    expect(await get(`${path}?${query}`, casa)).toEqual({
      status: 400,
      body: { status: 'error', code: 'VALIDATION_ERROR', messages: [message] },
      headers: expect.anything(),
    });
  });
});

describe.each(['/v1/round', '/v1/transaction'])('%s: access and validation', (path) => {
  it('shows another client only its own records', async () => {
    const answer = await get(`${path}?pageSize=100`, theirs);
    expect(answer.body.pagination.totalCount).toBe(path === '/v1/round' ? 1 : 2);
    expect(answer.body.data.every((item: { profileId: string }) => item.profileId === other.profileId)).toBe(
      true,
    );
    const rounds =
      path === '/v1/round' ? ids(answer) : answer.body.data.map((item: { roundId: string }) => item.roundId);
    expect(rounds).toContain(otherRound.roundId);
  });

  it.each([
    ['profileId', () => other.profileId, 'profile'],
    ['userId', () => other.playerId, 'user'],
    ['roundId', () => otherRound.roundId, 'round'],
  ])('answers 404 for an unknown %s, and the same for another API client’s', async (field, value, what) => {
    const unknown = await get(`${path}?${field}=nope`);
    expect(unknown).toMatchObject({
      status: 404,
      body: { status: 'error', code: 'NOT_FOUND', messages: [`${what} nope was not found`] },
    });
    const theirs = await get(`${path}?${field}=${value()}`);
    expectAnsweredAsUnknown(theirs, unknown, { theirs: value(), unknown: 'nope' });
  });

  it.each([
    ['type=win', ['type: must be bet, prize, rollback or deposit']],
    ['type=bet&type=prize', ['type: must be bet, prize, rollback or deposit']],
    ['dateStart=2026-02-30', ['dateStart: must be a date as YYYY-MM-DD']],
    ['dateEnd=01/03/2026', ['dateEnd: must be a date as YYYY-MM-DD']],
    ['dateStart=2026-03-02&dateEnd=2026-03-01', ['dateStart: must not be after dateEnd']],
    ['profileId=', ['profileId: must not be empty']],
    ['pageSize=0', ['pageSize: must be between 1 and 100']],
    ['pageSize=101', ['pageSize: must be between 1 and 100']],
    ['pageIndex=0', ['pageIndex: must be 1 or more']],
    ['pageIndex=1.5', ['pageIndex: must be a whole number']],
    [
      'type=x&pageSize=500&dateEnd=yesterday',
      [
        'pageSize: must be between 1 and 100',
        'type: must be bet, prize, rollback or deposit',
        'dateEnd: must be a date as YYYY-MM-DD',
      ],
    ],
  ])('refuses %s', async (query, messages) => {
    expect(await get(`${path}?${query}`)).toEqual({
      status: 400,
      body: { status: 'error', code: 'VALIDATION_ERROR', messages },
      headers: expect.anything(),
    });
  });

  it.each([
    ['pageIndex=501', 500, 20],
    ['pageSize=100&pageIndex=101', 100, 100],
    ['pageSize=7&pageIndex=1430', 1429, 7],
    ['pageSize=1&pageIndex=10001', 10_000, 1],
  ])('refuses %s: pages reach the newest 10,000 records', async (query, last, pageSize) => {
    expect(await get(`${path}?${query}`)).toEqual({
      status: 400,
      body: {
        status: 'error',
        code: 'VALIDATION_ERROR',
        messages: [
          `pageIndex: must be at most ${last} with pageSize ${pageSize}: a list pages through its newest ` +
            '10,000 records; narrow it (dateStart, dateEnd, profileId, userId, type) to reach older ones',
        ],
      },
      headers: expect.anything(),
    });
  });

  it.each([
    ['pageIndex=500', 500, 20],
    ['pageSize=100&pageIndex=100', 100, 100],
    ['pageSize=7&pageIndex=1429', 1429, 7],
  ])('answers %s, the last page within reach', async (query, pageIndex, pageSize) => {
    const answer = await get(`${path}?${query}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      status: 'success',
      data: [],
      pagination: { pageIndex, pageSize, totalCount: path === '/v1/round' ? 8 : 14 },
    });
  });

  it('accepts a leap day and a one-day range', async () => {
    expect((await get(`${path}?dateStart=2028-02-29&dateEnd=2028-02-29`)).body.pagination.totalCount).toBe(0);
  });

  it('needs a bearer token', async () => {
    expect(await get(path, null)).toMatchObject({
      status: 401,
      body: { status: 'error', code: 'UNAUTHORIZED' },
    });
    expect(await server.call('GET', path, { token: 'not-a-token' })).toMatchObject({ status: 401 });
  });
});
