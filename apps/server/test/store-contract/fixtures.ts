/**
 * Valid records for the store contract suite, and a fresh store per test. Every builder takes
 * overrides; ids are unique across the run and sort in creation order (they break ties in lists).
 */
import { buildLadder, type GameModel, type Ladder } from '@raspa/core';
import { afterEach, beforeEach } from 'vitest';
import type {
  ApiClientRecord,
  CaptchaRecord,
  DeliveryAttempt,
  DemoWalletCallRecord,
  GameRecord,
  GameSessionRecord,
  LedgerFilter,
  LedgerTransaction,
  LoggedDelivery,
  NewOutboxEvent,
  PlayerRecord,
  PoolRecord,
  ProfileRecord,
  ResetTokenRecord,
  RoundRecord,
  TokenSetRecord,
  UserTokenRecord,
  WebhookRecord,
} from '../../src/store/records.ts';
import { PROFILE_PROTECTION_DEFAULTS } from '../../src/store/records.ts';
import type { Repositories, Store } from '../../src/store/store.ts';

/** An open store and how to dispose of it (close it, drop its file or schema). */
export interface OpenedStore {
  store: Store;
  close(): Promise<void>;
}

/** Opens a new, empty, migrated store: every call gives one that shares nothing with the others. */
export type OpenStore = () => Promise<OpenedStore>;

/** A fresh store for each test of the describe block this is called in. */
export function useStore(open: OpenStore): () => Store {
  let opened: OpenedStore | undefined;
  beforeEach(async () => {
    opened = await open();
  });
  afterEach(async () => {
    const closing = opened;
    opened = undefined;
    await closing?.close();
  });
  return () => {
    if (!opened) throw new Error('the store is not open');
    return opened.store;
  };
}

/** The largest integer a JS number holds exactly: what a BIGINT money column must give back. */
export const MAX_MINOR = Number.MAX_SAFE_INTEGER;

let counter = 0;
/** A unique id that sorts after every id made before it. */
export const newId = (kind: string) => `${kind}-${String(++counter).padStart(8, '0')}`;

const T0 = Date.UTC(2030, 0, 1);
/** An ISO time `seconds` after 2030-01-01T00:00:00.000Z (negative: before). */
export const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();
/** An ISO time on day `day` (0 = 2030-01-01), `seconds` after its midnight UTC. */
export const onDay = (day: number, seconds = 0) => at(day * 86_400 + seconds);

const ladders = new Map<string, Ladder>();
/** A real ladder, as the game service computes and stores it. */
export function ladderFor(gameModel: GameModel, currency = 'BRL', betMinor = 500): Ladder {
  const key = `${gameModel}:${currency}:${betMinor}`;
  let ladder = ladders.get(key);
  if (!ladder) {
    const built = buildLadder({
      gameModel,
      currency,
      rtp: 0.8,
      sampling: 200_000,
      prizedPercent: 0.25,
      betPrice: betMinor / 100,
    });
    if (!built.ok) throw new Error(`fixture ladder: ${JSON.stringify(built.problems)}`);
    ladder = built.ladder;
    ladders.set(key, ladder);
  }
  return ladder;
}

// ---- records

export function clientRecord(over: Partial<ApiClientRecord> = {}): ApiClientRecord {
  const id = over.id ?? newId('client');
  return {
    id,
    name: `Client ${id}`,
    email: `${id}@example.test`,
    apiKeyHash: `api-key-hash-${id}`,
    passwordHash: null,
    lang: 'en',
    createdAt: at(0),
    ...over,
  };
}

export function tokenSetRecord(clientId: string, over: Partial<TokenSetRecord> = {}): TokenSetRecord {
  const id = over.id ?? newId('tokens');
  return {
    id,
    clientId,
    accessHash: `access-hash-${id}`,
    expireAt: at(3600),
    revokedAt: null,
    createdAt: at(0),
    via: 'api-key',
    ...over,
  };
}

export function profileRecord(clientId: string, over: Partial<ProfileRecord> = {}): ProfileRecord {
  const id = over.id ?? newId('profile');
  return {
    id,
    clientId,
    name: `Profile ${id}`,
    type: 'operator',
    currency: 'BRL',
    currencies: null,
    walletUrl: 'https://wallet.example.test/raspa',
    walletTokenSealed: `sealed-wallet-token-${id}`,
    allowedOrigins: [],
    ...PROFILE_PROTECTION_DEFAULTS,
    createdAt: at(0),
    updatedAt: at(0),
    ...over,
  };
}

export function gameRecord(profile: ProfileRecord, over: Partial<GameRecord> = {}): GameRecord {
  const gameModel = over.gameModel ?? 'oxe-ganhei';
  const currency = over.currency ?? profile.currency;
  const ladder = over.ladder ?? ladderFor(gameModel);
  return {
    id: newId('game'),
    clientId: profile.clientId,
    profileId: profile.id,
    gameModel,
    version: 1,
    active: true,
    lang: 'pt',
    currency,
    rtpPpm: ladder.rtpPpm,
    sampling: ladder.sampling,
    prizedPpm: ladder.prizedPpm,
    betMinor: ladder.betPrice,
    ladder,
    createdAt: at(0),
    ...over,
  };
}

export function playerRecord(profile: ProfileRecord, over: Partial<PlayerRecord> = {}): PlayerRecord {
  const id = over.id ?? newId('player');
  return {
    id,
    clientId: profile.clientId,
    profileId: profile.id,
    credential: `${id}@example.test`,
    credentialType: 'email',
    balanceMinor: 10_000,
    betWins: 0,
    totalBets: 0,
    createdAt: at(0),
    ...over,
  };
}

export function userTokenRecord(playerId: string, over: Partial<UserTokenRecord> = {}): UserTokenRecord {
  return {
    tokenHash: newId('user-token-hash'),
    playerId,
    expireAt: at(7200),
    createdAt: at(0),
    ...over,
  };
}

export function sessionRecord(
  player: PlayerRecord,
  game: GameRecord,
  over: Partial<GameSessionRecord> = {},
): GameSessionRecord {
  const id = over.id ?? newId('session');
  return {
    id,
    clientId: player.clientId,
    profileId: player.profileId,
    playerId: player.id,
    gameId: game.id,
    tokenHash: `session-token-hash-${id}`,
    lang: 'pt',
    returnUrl: null,
    expireAt: at(7200),
    createdAt: at(0),
    realityCheckAckedAt: null,
    endedAt: null,
    endCode: null,
    ...over,
  };
}

/** One player at one game of one profile of one client, with a session: what a round needs. */
export interface Seat {
  client: ApiClientRecord;
  profile: ProfileRecord;
  game: GameRecord;
  player: PlayerRecord;
  session: GameSessionRecord;
}

export function roundRecord(seat: Seat, over: Partial<RoundRecord> = {}): RoundRecord {
  const createdAt = over.createdAt ?? at(0);
  return {
    id: newId('round'),
    clientId: seat.client.id,
    profileId: seat.profile.id,
    gameId: seat.game.id,
    playerId: seat.player.id,
    sessionId: seat.session.id,
    status: 'closed',
    currency: seat.game.currency,
    paidMinor: seat.game.betMinor,
    prizeMinor: 0,
    createdAt,
    endAt: null,
    poolId: null,
    drawIndex: null,
    level: null,
    cardJson: null,
    lastActionAt: createdAt,
    reconciliation: false,
    prizeTransactionId: null,
    promotionId: null,
    test: false,
    ...over,
  };
}

export function transactionRecord(
  round: RoundRecord,
  over: Partial<LedgerTransaction> = {},
): LedgerTransaction {
  return {
    id: newId('tx'),
    roundId: round.id,
    clientId: round.clientId,
    profileId: round.profileId,
    playerId: round.playerId,
    type: 'bet',
    amountMinor: -round.paidMinor,
    currency: round.currency,
    balanceBeforeMinor: null,
    balanceAfterMinor: null,
    status: 'pending',
    createdAt: round.createdAt,
    originalTransactionId: null,
    attempts: 0,
    nextAttemptAt: round.createdAt,
    lastError: null,
    completedAt: null,
    ...over,
  };
}

/** A ledger filter of one client, nothing else filtered unless `over` says so. */
export const ledgerFilter = (clientId: string, over: Partial<LedgerFilter> = {}): LedgerFilter => ({
  clientId,
  profileId: null,
  playerId: null,
  roundId: null,
  type: null,
  status: null,
  from: null,
  before: null,
  ...over,
});

/** What the ledger lists show of a transaction (TransactionRecord, not the wallet-call fields). */
export function listed(transaction: LedgerTransaction) {
  const { originalTransactionId, attempts, nextAttemptAt, lastError, completedAt, ...shown } = transaction;
  return shown;
}

export function poolRecord(game: GameRecord, over: Partial<PoolRecord> = {}): PoolRecord {
  const id = over.id ?? newId('pool');
  return {
    id,
    gameId: game.id,
    number: 1,
    sampling: 10,
    seedSealed: `sealed-seed-${id}`,
    commitment: `commitment-${id}`,
    draws: 0,
    allocated: 0,
    seedHex: null,
    startedAt: at(0),
    endedAt: null,
    ...over,
  };
}

export function webhookRecord(clientId: string, over: Partial<WebhookRecord> = {}): WebhookRecord {
  const id = over.id ?? newId('webhook');
  return {
    id,
    clientId,
    url: `https://hooks.example.test/${id}`,
    eventTriggers: ['open-round', 'close-round'],
    tokenSealed: `sealed-signature-token-${id}`,
    status: 'active',
    createdAt: at(0),
    lastTriggered: null,
    successCount: 0,
    failureCount: 0,
    delivery: { mode: 'single', maxEvents: 100, maxWaitMs: 250 },
    deletedAt: null,
    ...over,
  };
}

export function deliveryRecord(webhookId: string, over: Partial<LoggedDelivery> = {}): LoggedDelivery {
  return {
    id: newId('delivery'),
    webhookId,
    eventId: newId('event'),
    eventType: 'close-round',
    responseCode: 200,
    responseBody: 'ok',
    success: true,
    status: 'success',
    durationMs: 42,
    timestamp: at(0),
    retryCount: 0,
    errorMessage: null,
    batchId: null,
    ...over,
  };
}

export function deliveryAttempt(webhookId: string, over: Partial<DeliveryAttempt> = {}): DeliveryAttempt {
  return {
    id: newId('delivery'),
    webhookId,
    eventId: newId('event'),
    eventType: 'close-round',
    retryCount: 0,
    responseCode: 200,
    responseBody: 'ok',
    success: true,
    durationMs: 42,
    timestamp: at(0),
    errorMessage: null,
    batchId: null,
    willRetry: false,
    ...over,
  };
}

/** A failed attempt (no answer came back). */
export const failedAttempt = (webhookId: string, over: Partial<DeliveryAttempt> = {}) =>
  deliveryAttempt(webhookId, {
    responseCode: null,
    responseBody: '',
    success: false,
    errorMessage: 'connect ECONNREFUSED',
    willRetry: true,
    ...over,
  });

export function outboxEvent(
  webhookId: string,
  roundId: string,
  over: Partial<NewOutboxEvent> = {},
): NewOutboxEvent {
  return {
    id: newId('event'),
    webhookId,
    roundId,
    eventType: 'open-round',
    payload: { roundId, status: 'open', amounts: [500, -500] },
    nextAttemptAt: at(0),
    createdAt: at(0),
    ...over,
  };
}

export function resetTokenRecord(clientId: string, over: Partial<ResetTokenRecord> = {}): ResetTokenRecord {
  const id = over.id ?? newId('reset');
  return {
    id,
    clientId,
    tokenHash: `reset-token-hash-${id}`,
    expireAt: at(1800),
    usedAt: null,
    createdAt: at(0),
    ...over,
  };
}

export function captchaRecord(over: Partial<CaptchaRecord> = {}): CaptchaRecord {
  const id = over.id ?? newId('captcha');
  return { id, answerHash: `answer-hash-${id}`, expireAt: at(300), usedAt: null, ...over };
}

export function demoCallRecord(
  playerId: string,
  over: Partial<DemoWalletCallRecord> = {},
): DemoWalletCallRecord {
  return {
    transactionId: newId('tx'),
    playerId,
    kind: 'bet',
    amountMinor: 500,
    answer: JSON.stringify({ balance: 95, currency: 'BRL' }),
    createdAt: at(0),
    ...over,
  };
}

// ---- seeding: each inserts what it builds (and what that needs) and returns it

export async function seedClient(repos: Repositories, over: Partial<ApiClientRecord> = {}) {
  const client = clientRecord(over);
  await repos.clients.insertClient(client);
  return client;
}

export async function seedProfile(repos: Repositories, clientId: string, over: Partial<ProfileRecord> = {}) {
  const profile = profileRecord(clientId, over);
  await repos.profiles.insert(profile);
  return profile;
}

export async function seedGame(repos: Repositories, profile: ProfileRecord, over: Partial<GameRecord> = {}) {
  const game = gameRecord(profile, over);
  await repos.games.insert(game);
  return game;
}

export async function seedPlayer(
  repos: Repositories,
  profile: ProfileRecord,
  over: Partial<PlayerRecord> = {},
) {
  const player = playerRecord(profile, over);
  await repos.players.insert(player);
  return player;
}

export interface SeatOptions {
  /** An existing client to seat the player at (a new one otherwise). */
  client?: ApiClientRecord;
  profile?: Partial<ProfileRecord>;
  game?: Partial<GameRecord>;
  player?: Partial<PlayerRecord>;
}

/** A client (or the given one), a profile, an active game, a player and a session. */
export async function seedSeat(repos: Repositories, options: SeatOptions = {}): Promise<Seat> {
  const client = options.client ?? (await seedClient(repos));
  const profile = await seedProfile(repos, client.id, options.profile);
  const game = await seedGame(repos, profile, options.game);
  return seedPlayerAt(repos, { client, profile, game }, options.player);
}

/** Another player (with a session) at a seat's profile and game. */
export async function seedPlayerAt(
  repos: Repositories,
  seat: Pick<Seat, 'client' | 'profile' | 'game'>,
  over: Partial<PlayerRecord> = {},
): Promise<Seat> {
  const player = await seedPlayer(repos, seat.profile, over);
  const session = sessionRecord(player, seat.game);
  await repos.sessions.insert(session);
  return { ...seat, player, session };
}

export async function seedRound(repos: Repositories, seat: Seat, over: Partial<RoundRecord> = {}) {
  const round = roundRecord(seat, over);
  await repos.rounds.insertRound(round);
  return round;
}

export async function seedTransaction(
  repos: Repositories,
  round: RoundRecord,
  over: Partial<LedgerTransaction> = {},
) {
  // A live round's prize goes under its fixed id, as the service writes it (PostgreSQL refuses any
  // other: migration 010); the same rule on both databases keeps the fixtures alike.
  const fixedPrize =
    over.type === 'prize' && over.id === undefined && (round.status === 'open' || round.status === 'closing')
      ? { id: round.prizeTransactionId ?? `${round.id}.prize` }
      : {};
  const transaction = transactionRecord(round, { ...fixedPrize, ...over });
  await repos.rounds.insertTransaction(transaction);
  return transaction;
}

export async function seedPool(repos: Repositories, game: GameRecord, over: Partial<PoolRecord> = {}) {
  const pool = poolRecord(game, over);
  await repos.pools.insert(pool);
  return pool;
}

export async function seedWebhook(repos: Repositories, clientId: string, over: Partial<WebhookRecord> = {}) {
  const webhook = webhookRecord(clientId, over);
  await repos.webhooks.insert(webhook);
  return webhook;
}
