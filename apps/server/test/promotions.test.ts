import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAnsweredAsUnknown } from './as-unknown.ts';
import { type DatabaseSnapshots, databaseSnapshots } from './database-snapshot.ts';
import { startTestServer, type TestServer, type TokenSet } from './harness.ts';

/**
 * The promotions API (docs/contract.md §14, docs/promotions.md): create, add players, list, read,
 * cancel, and a player's free cards, over real HTTP on both databases. One test plays cards to read
 * `used` and `prizes`; the play itself is free-cards-play.test.ts's.
 */

let server: TestServer;
let tokens: TokenSet;
let other: TokenSet;
let snapshots: DatabaseSnapshots;

const MINUTE = 60_000;
/** Tables a refused request may still touch: counters and captchas, not records. */
const SNAPSHOT_SKIP = new Set(['captchas', 'rate_limit_counters', 'schema_migrations']);

beforeAll(async () => {
  server = await startTestServer();
  tokens = (await server.newClient()).tokens;
  other = (await server.newClient('Other operator')).tokens;
  snapshots = await databaseSnapshots(server, SNAPSHOT_SKIP);
});
afterAll(async () => {
  await snapshots.close();
  await server.close();
});

const later = (ms: number) => new Date(server.clock().getTime() + ms).toISOString();

async function created<T = any>(method: string, path: string, body: unknown, token = tokens): Promise<T> {
  const answer = await server.call(method, path, { token, body });
  if (answer.status >= 300) throw new Error(`${method} ${path}: ${JSON.stringify(answer.body)}`);
  return answer.body.data;
}

/** A demo profile with a game (betPrice 2 BRL, `game` overriding) and `players` of its players. */
async function newOffer(token = tokens, players = 2, game: Record<string, unknown> = {}) {
  const { profileId } = await created('POST', '/v1/profile', { name: 'Promos', type: 'demo' }, token);
  const { id: gameId } = await created(
    'POST',
    '/v1/game',
    {
      profileId,
      gameModel: 'oxe-ganhei',
      lang: 'pt',
      currency: 'BRL',
      rtp: 0.9,
      sampling: 1_000_000,
      prizedPercent: 0.3,
      betPrice: 2,
      simulation: false,
      replacePreviousVersion: false,
      ...game,
    },
    token,
  );
  const userIds: string[] = [];
  const userTokens: string[] = [];
  for (let i = 0; i < players; i++) {
    const { userId, userToken } = await created(
      'POST',
      '/v1/user/auth',
      { profileId, credential: `p-${randomUUID()}`, credentialType: 'username' },
      token,
    );
    userIds.push(userId);
    userTokens.push(userToken);
  }
  return { profileId, gameId, userIds, userTokens };
}

/**
 * Players inserted in bulk, not through 10,000 logins (most of a test's time): one statement on
 * PostgreSQL (10,000 single inserts there are ~10,000 round trips), the store's own inserts in one
 * unit on SQLite (in-process, fast).
 */
async function seedPlayers(clientId: string, profileId: string, ids: string[]): Promise<void> {
  const createdAt = server.clock().toISOString();
  const url = server.config.DATABASE_URL;
  if (url) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(
        `INSERT INTO players (id, client_id, profile_id, credential, credential_type, created_at)
         SELECT id, $2, $3, id, 'external', $4 FROM unnest($1::text[]) AS id`,
        [ids, clientId, profileId, createdAt],
      );
    } finally {
      await client.end();
    }
    return;
  }
  await server.deps.store.transaction(async (tx) => {
    for (const id of ids) {
      await tx.players.insert({
        id,
        clientId,
        profileId,
        credential: id,
        credentialType: 'external',
        balanceMinor: 0,
        betWins: 0,
        totalBets: 0,
        createdAt,
      });
    }
  });
}

const createBody = (offer: Awaited<ReturnType<typeof newOffer>>, over: Record<string, unknown> = {}) => ({
  profileId: offer.profileId,
  gameId: offer.gameId,
  name: 'Welcome offer',
  cardsPerPlayer: 3,
  players: offer.userIds,
  expireAt: later(60 * MINUTE),
  ...over,
});

async function readPromotion(promotionId: string, token = tokens) {
  const answer = await server.call('GET', `/v1/promotion/${promotionId}`, { token });
  expect(answer.status).toBe(200);
  return answer.body.data;
}

async function freeCards(userId: string, token = tokens) {
  const answer = await server.call('GET', `/v1/user/${userId}/free-cards`, { token });
  expect(answer.status).toBe(200);
  return answer.body.data;
}

describe('POST /v1/promotion and GET /v1/promotion/{id}', () => {
  it('creates a promotion whose players each hold cardsPerPlayer cards worth the game’s betPrice', async () => {
    const offer = await newOffer();
    const [first, second] = offer.userIds as [string, string];
    const now = server.clock().toISOString();
    const expireAt = later(60 * MINUTE);
    const answer = await server.call('POST', '/v1/promotion', {
      token: tokens,
      // A player listed twice gets the cards once.
      body: createBody(offer, { players: [first, second, first], expireAt }),
    });
    expect(answer.status).toBe(201);
    const { promotionId } = answer.body.data;
    expect(answer.body).toEqual({ status: 'success', data: { promotionId: expect.any(String) } });

    expect(await readPromotion(promotionId)).toEqual({
      promotionId,
      profileId: offer.profileId,
      gameId: offer.gameId,
      name: 'Welcome offer',
      cardsPerPlayer: 3,
      cardValue: 2,
      currency: 'BRL',
      status: 'active',
      startAt: now,
      expireAt,
      cancelledAt: null,
      createdAt: now,
      players: 2,
      granted: 6,
      used: 0,
      prizes: 0,
    });
    expect(await freeCards(first)).toEqual({
      userId: first,
      freeCards: [
        {
          promotionId,
          gameId: offer.gameId,
          name: 'Welcome offer',
          left: 3,
          status: 'active',
          startAt: now,
          expireAt,
        },
      ],
    });
  });

  it('refuses bad input with the envelope and changes nothing', async () => {
    const offer = await newOffer();
    const stranger = await newOffer(tokens, 1);
    const foreign = await newOffer(other, 1);
    const cases: Array<[string, Record<string, unknown>, number, string, RegExp]> = [
      ['no players', { players: [] }, 400, 'VALIDATION_ERROR', /^players: must list at least one player/],
      ['zero cards', { cardsPerPlayer: 0 }, 400, 'VALIDATION_ERROR', /^cardsPerPlayer: must be between 1/],
      ['expiry past', { expireAt: later(-1) }, 400, 'VALIDATION_ERROR', /^expireAt: must be in the future/],
      [
        'expiry before start',
        { startAt: later(10 * MINUTE), expireAt: later(5 * MINUTE) },
        400,
        'VALIDATION_ERROR',
        /^expireAt: must be after startAt/,
      ],
      [
        'over 366 days',
        { expireAt: later(367 * 24 * 60 * MINUTE) },
        400,
        'VALIDATION_ERROR',
        /^expireAt: must be at most 366 days after startAt/,
      ],
      [
        'unknown profile',
        { profileId: 'nope' },
        400,
        'VALIDATION_ERROR',
        /^profileId: profile nope was not found/,
      ],
      [
        'another client’s profile, as unknown',
        { profileId: foreign.profileId, gameId: foreign.gameId },
        400,
        'VALIDATION_ERROR',
        new RegExp(`^profileId: profile ${foreign.profileId} was not found$`),
      ],
      [
        'another client’s game, as unknown',
        { gameId: foreign.gameId },
        400,
        'VALIDATION_ERROR',
        new RegExp(`^gameId: game ${foreign.gameId} was not found$`),
      ],
      [
        'another profile’s game',
        { gameId: stranger.gameId },
        400,
        'VALIDATION_ERROR',
        /^gameId: game .* is not a game of profile/,
      ],
      [
        'another profile’s player',
        { players: [...offer.userIds, stranger.userIds[0]] },
        404,
        'NOT_FOUND',
        /^players: 1 of the userIds listed is not a player of profile/,
      ],
      [
        'another client’s player',
        { players: [foreign.userIds[0], 'ghost'] },
        404,
        'NOT_FOUND',
        /^players: 2 of the userIds listed are not players of profile/,
      ],
    ];
    const before = await snapshots.snapshot();
    for (const [name, over, status, code, message] of cases) {
      const answer = await server.call('POST', '/v1/promotion', {
        token: tokens,
        body: createBody(offer, over),
      });
      expect([name, answer.status, answer.body.status, answer.body.code]).toEqual([
        name,
        status,
        'error',
        code,
      ]);
      expect(answer.body.messages.join('\n'), name).toMatch(message);
    }
    expect(await snapshots.snapshot()).toBe(before);
  });

  it('answers a retry with the same Idempotency-Key once, with one promotion and one audit row', async () => {
    const client = await server.newClient('Retrying operator');
    const offer = await newOffer(client.tokens);
    const headers = { 'Idempotency-Key': randomUUID() };
    const body = createBody(offer);
    const first = await server.call('POST', '/v1/promotion', { token: client.tokens, body, headers });
    const retry = await server.call('POST', '/v1/promotion', { token: client.tokens, body, headers });
    expect(first.status).toBe(201);
    expect([retry.status, retry.body]).toEqual([201, first.body]);
    expect(retry.headers.get('Idempotent-Replayed')).toBe('true');

    const list = await server.call('GET', `/v1/promotion?profileId=${offer.profileId}`, {
      token: client.tokens,
    });
    expect(list.body.data.map((p: { promotionId: string }) => p.promotionId)).toEqual([
      first.body.data.promotionId,
    ]);
    const audit = await server.call('GET', '/v1/audit?pageSize=100', { token: client.tokens });
    expect(
      audit.body.data.filter((row: { operation: string }) => row.operation === 'POST /v1/promotion'),
    ).toEqual([expect.objectContaining({ targetId: first.body.data.promotionId, actor: 'apiKey' })]);
  });
});

describe('POST /v1/promotion/{id}/players', () => {
  it('adds new players, keeps those already in it, and refuses strangers changing nothing', async () => {
    const offer = await newOffer(tokens, 3);
    const [a, b, c] = offer.userIds as [string, string, string];
    const { promotionId } = await created('POST', '/v1/promotion', createBody(offer, { players: [a] }));
    const added = await server.call('POST', `/v1/promotion/${promotionId}/players`, {
      token: tokens,
      body: { players: [a, b, c] },
    });
    expect(added.status).toBe(200);
    expect(added.body.data).toEqual({ promotionId, added: 2, alreadyGranted: 1 });
    expect(await readPromotion(promotionId)).toMatchObject({ players: 3, granted: 9 });

    const before = await snapshots.snapshot();
    const strangers = await server.call('POST', `/v1/promotion/${promotionId}/players`, {
      token: tokens,
      body: { players: [a, 'ghost'] },
    });
    expect([strangers.status, strangers.body.code]).toEqual([404, 'NOT_FOUND']);
    expect(strangers.body.messages).toEqual([
      `players: 1 of the userIds listed is not a player of profile ${offer.profileId}: ghost`,
    ]);
    const foreign = await server.call('POST', `/v1/promotion/${promotionId}/players`, {
      token: other,
      body: { players: [a] },
    });
    const unknown = await server.call('POST', '/v1/promotion/nope/players', {
      token: tokens,
      body: { players: [a] },
    });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'NOT_FOUND']);
    expectAnsweredAsUnknown(foreign, unknown, { theirs: promotionId, unknown: 'nope' });
    expect(await snapshots.snapshot()).toBe(before);
  });

  it('grants 10,000 players in one call', async () => {
    const offer = await newOffer(tokens, 0);
    const { clientId } = (await server.deps.store.profiles.findById(offer.profileId)) as { clientId: string };
    const ids = Array.from({ length: 10_000 }, () => randomUUID());
    await seedPlayers(clientId, offer.profileId, ids);
    const { promotionId } = await created(
      'POST',
      '/v1/promotion',
      createBody(offer, { players: ids.slice(0, 5_000), cardsPerPlayer: 2 }),
    );
    const answer = await server.call('POST', `/v1/promotion/${promotionId}/players`, {
      token: tokens,
      body: { players: ids },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({ promotionId, added: 5_000, alreadyGranted: 5_000 });
    expect(await readPromotion(promotionId)).toMatchObject({ players: 10_000, granted: 20_000, used: 0 });
    expect((await freeCards(ids[9_999] as string)).freeCards).toEqual([
      expect.objectContaining({ promotionId, left: 2 }),
    ]);
  });
});

describe('the body limit of the promotion writes', () => {
  it('is 1 MiB, not 100 KiB: room for 10,000 ids of 100 characters; a larger body is a 413 in the envelope', async () => {
    const offer = await newOffer(tokens, 0);
    const id = (i: number) => `${'x'.repeat(100)}${i}`.slice(-100);
    // The largest valid list is read (and refused for its unknown players, not for its size).
    const largest = await server.call('POST', '/v1/promotion', {
      token: tokens,
      body: createBody(offer, { players: Array.from({ length: 10_000 }, (_, i) => id(i)) }),
    });
    expect([largest.status, largest.body.code]).toEqual([404, 'NOT_FOUND']);
    const players = Array.from({ length: 11_000 }, (_, i) => id(i));
    const answer = await server.call('POST', '/v1/promotion', {
      token: tokens,
      body: createBody(offer, { players }),
    });
    expect([answer.status, answer.body.status, answer.body.code]).toEqual([
      413,
      'error',
      'PAYLOAD_TOO_LARGE',
    ]);
  });
});

describe('GET /v1/promotion', () => {
  it('pages the client’s promotions newest first, by profile, game and status', async () => {
    const client = await server.newClient('Listing operator');
    const token = client.tokens;
    const offer = await newOffer(token, 1);
    const second = await newOffer(token, 1);
    const ids: string[] = [];
    for (const over of [{}, { startAt: later(30 * MINUTE) }, {}]) {
      ids.push((await created('POST', '/v1/promotion', createBody(offer, over), token)).promotionId);
      server.clock.advance(1);
    }
    const elsewhere = (await created('POST', '/v1/promotion', createBody(second), token)).promotionId;
    const listed = async (query: string) => {
      const answer = await server.call('GET', `/v1/promotion?${query}`, { token });
      expect(answer.status).toBe(200);
      return {
        ids: answer.body.data.map((p: { promotionId: string }) => p.promotionId),
        pagination: answer.body.pagination,
      };
    };
    const [first, scheduled, third] = ids as [string, string, string];
    expect(await listed('pageSize=2')).toEqual({
      ids: [elsewhere, third],
      pagination: { pageIndex: 1, pageSize: 2, totalCount: 4 },
    });
    expect(await listed('pageSize=2&pageIndex=2')).toEqual({
      ids: [scheduled, first],
      pagination: { pageIndex: 2, pageSize: 2, totalCount: 4 },
    });
    expect((await listed(`profileId=${offer.profileId}`)).ids).toEqual([third, scheduled, first]);
    expect((await listed(`gameId=${second.gameId}`)).ids).toEqual([elsewhere]);
    expect((await listed(`profileId=${offer.profileId}&status=scheduled`)).ids).toEqual([scheduled]);
    expect((await listed('status=active')).ids).toEqual([elsewhere, third, first]);

    const foreign = await server.call('GET', `/v1/promotion?profileId=${offer.profileId}`, { token: other });
    const unknown = await server.call('GET', '/v1/promotion?profileId=nope', { token });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'NOT_FOUND']);
    expectAnsweredAsUnknown(foreign, unknown, { theirs: offer.profileId, unknown: 'nope' });
    const bad = await server.call('GET', '/v1/promotion?status=live', { token });
    expect([bad.status, bad.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    // Another client's list holds none of these.
    const theirs = await server.call('GET', '/v1/promotion', { token: other });
    expect(
      theirs.body.data.filter((p: { promotionId: string }) => [...ids, elsewhere].includes(p.promotionId)),
    ).toEqual([]);
  });
});

describe('the figures of played cards', () => {
  it('sums the completed prizes of its free rounds into prizes, never a bought card’s', async () => {
    // Every card wins: the demo wallet pays each prize in the reveal.
    const offer = await newOffer(tokens, 1, { prizedPercent: 1 });
    const userToken = offer.userTokens[0] as string;
    const { promotionId } = await created('POST', '/v1/promotion', createBody(offer, { cardsPerPlayer: 1 }));
    const other = await created('POST', '/v1/promotion', createBody(offer, { name: 'Unplayed' }));
    await created('DELETE', `/v1/promotion/${other.promotionId}`, undefined);
    const { sessionId } = await created('POST', '/v1/game/session', { userToken, gameId: offer.gameId });
    const play = server.running.app.services.play;
    const prizes: number[] = [];
    // The first card is the free one, the second bought (its prize is not the promotion's).
    for (const price of [0, 200]) {
      const bought = await play.buy(sessionId);
      if (!bought.ok) throw new Error(JSON.stringify(bought));
      expect(bought.data.round.price).toBe(price);
      const revealed = await play.reveal(sessionId, bought.data.round.roundId);
      if (!revealed.ok) throw new Error(JSON.stringify(revealed));
      expect(revealed.data.round).toMatchObject({ status: 'closed', prize: expect.any(Number) });
      prizes.push(revealed.data.round.prize);
    }
    expect(prizes[0]).toBeGreaterThan(0);

    const read = await readPromotion(promotionId);
    expect(read).toMatchObject({ used: 1, prizes: (prizes[0] as number) / 100 });
    const list = await server.call('GET', `/v1/promotion?gameId=${offer.gameId}`, { token: tokens });
    const listed = list.body.data.map((item: { name: string; used: number; prizes: number }) => [
      item.name,
      [item.used, item.prizes],
    ]);
    expect(Object.fromEntries(listed)).toEqual({ Unplayed: [0, 0], 'Welcome offer': [1, read.prizes] });
  });
});

describe('a jurisdiction that forbids free cards (BR)', () => {
  it('takes no promotion, and a profile with open promotions cannot move to it until they are cancelled', async () => {
    const offer = await newOffer(tokens, 1);
    const { promotionId } = await created('POST', '/v1/promotion', createBody(offer));
    const toBr = () =>
      server.call('PUT', `/v1/profile/${offer.profileId}`, { token: tokens, body: { jurisdiction: 'BR' } });
    const refused = await toBr();
    expect([refused.status, refused.body.code]).toEqual([409, 'CONFLICT']);
    expect(refused.body.messages[0]).toMatch(
      /^jurisdiction: BR rules forbid free cards, and profile .* has 1 scheduled or active promotion: cancel it first/,
    );

    expect((await server.call('DELETE', `/v1/promotion/${promotionId}`, { token: tokens })).status).toBe(200);
    expect((await toBr()).status).toBe(200);
    const before = await snapshots.snapshot();
    const create = await server.call('POST', '/v1/promotion', { token: tokens, body: createBody(offer) });
    expect([create.status, create.body.code]).toEqual([409, 'CONFLICT']);
    expect(create.body.messages[0]).toMatch(
      /is under BR rules, which forbid free cards \(Lei 14\.790\/2023 art\. 29, I/,
    );
    expect(await snapshots.snapshot()).toBe(before);
  });
});

describe('DELETE /v1/promotion/{id}', () => {
  it('cancels: its cards end, a repeat answers the same, and each is audited', async () => {
    const offer = await newOffer(tokens, 1);
    const userId = offer.userIds[0] as string;
    const { promotionId } = await created('POST', '/v1/promotion', createBody(offer));
    server.clock.advance(MINUTE);
    const cancelledAt = server.clock().toISOString();
    const answer = await server.call('DELETE', `/v1/promotion/${promotionId}`, { token: tokens });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ promotionId, status: 'cancelled', cancelledAt, granted: 3 });
    expect((await freeCards(userId)).freeCards).toEqual([]);

    server.clock.advance(MINUTE);
    const again = await server.call('DELETE', `/v1/promotion/${promotionId}`, { token: tokens });
    expect([again.status, again.body]).toEqual([200, answer.body]);
    const more = await server.call('POST', `/v1/promotion/${promotionId}/players`, {
      token: tokens,
      body: { players: [userId] },
    });
    expect([more.status, more.body.code]).toEqual([409, 'CONFLICT']);

    const foreign = await server.call('DELETE', `/v1/promotion/${promotionId}`, { token: other });
    const unknown = await server.call('DELETE', '/v1/promotion/nope', { token: tokens });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'NOT_FOUND']);
    expectAnsweredAsUnknown(foreign, unknown, { theirs: promotionId, unknown: 'nope' });

    const audit = await server.call('GET', '/v1/audit?pageSize=100', { token: tokens });
    const mine = audit.body.data.filter((row: { targetId: string | null }) => row.targetId === promotionId);
    expect(mine.map((row: { operation: string }) => row.operation)).toEqual([
      'DELETE /v1/promotion/:promotionId',
      'DELETE /v1/promotion/:promotionId',
      'POST /v1/promotion',
    ]);
  });
});

describe('reads of another client’s or unknown records', () => {
  it('are the same 404', async () => {
    const offer = await newOffer(tokens, 1);
    const { promotionId } = await created('POST', '/v1/promotion', createBody(offer));
    const userId = offer.userIds[0] as string;
    for (const [path, theirs] of [
      ['/v1/promotion/:id', promotionId],
      ['/v1/user/:id/free-cards', userId],
    ] as const) {
      const unknown = await server.call('GET', path.replace(':id', 'nope'), { token: tokens });
      expect([path, unknown.status, unknown.body.code]).toEqual([path, 404, 'NOT_FOUND']);
      const answer = await server.call('GET', path.replace(':id', theirs), { token: other });
      expectAnsweredAsUnknown(answer, unknown, { theirs, unknown: 'nope' });
    }
  });
});

describe('the status over time (the service clock)', () => {
  it('is scheduled, then active, then ended; an ended one cannot be cancelled nor take players', async () => {
    // A client of its own: its token set is fresh whatever earlier tests did to the clock.
    const { tokens: token } = await server.newClient('Timed operator');
    const offer = await newOffer(token, 1);
    const userId = offer.userIds[0] as string;
    const startAt = later(10 * MINUTE);
    const expireAt = later(70 * MINUTE);
    const { promotionId } = await created(
      'POST',
      '/v1/promotion',
      createBody(offer, { startAt, expireAt }),
      token,
    );
    const line = (status: string) => ({
      promotionId,
      gameId: offer.gameId,
      name: 'Welcome offer',
      left: 3,
      status,
      startAt,
      expireAt,
    });

    expect((await readPromotion(promotionId, token)).status).toBe('scheduled');
    expect((await freeCards(userId, token)).freeCards).toEqual([line('scheduled')]);
    server.clock.set(new Date(startAt));
    expect((await readPromotion(promotionId, token)).status).toBe('active');
    expect((await freeCards(userId, token)).freeCards).toEqual([line('active')]);
    server.clock.set(new Date(Date.parse(expireAt) - 1));
    expect((await readPromotion(promotionId, token)).status).toBe('active');
    server.clock.set(new Date(expireAt));
    expect((await readPromotion(promotionId, token)).status).toBe('ended');
    expect((await freeCards(userId, token)).freeCards).toEqual([]);

    const before = await snapshots.snapshot();
    const cancel = await server.call('DELETE', `/v1/promotion/${promotionId}`, { token });
    expect([cancel.status, cancel.body.code]).toEqual([409, 'CONFLICT']);
    const add = await server.call('POST', `/v1/promotion/${promotionId}/players`, {
      token,
      body: { players: [userId] },
    });
    expect([add.status, add.body.code]).toEqual([409, 'CONFLICT']);
    expect(await snapshots.snapshot()).toBe(before);
  });
});

describe('the OpenAPI document', () => {
  it('describes the six operations with their schemas', async () => {
    const answer = await server.call('GET', '/v1/openapi.json');
    expect(answer.status).toBe(200);
    const { paths, components } = answer.body;
    expect(Object.keys(paths['/v1/promotion'])).toEqual(expect.arrayContaining(['get', 'post']));
    expect(Object.keys(paths['/v1/promotion/{promotionId}'])).toEqual(
      expect.arrayContaining(['get', 'delete']),
    );
    expect(Object.keys(paths['/v1/promotion/{promotionId}/players'])).toEqual(['post']);
    expect(Object.keys(paths['/v1/user/{userId}/free-cards'])).toEqual(['get']);
    expect(Object.keys(components.schemas)).toEqual(
      expect.arrayContaining(['PromotionCreate', 'Promotion', 'PromotionPlayersAdded', 'PlayerFreeCards']),
    );
  });
});
