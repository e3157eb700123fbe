import { randomUUID } from 'node:crypto';
import type { GameInput, TokenSet } from '@raspa/server/wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solveCaptcha, solvedCaptcha as solvedCaptchaOf } from '../../../server/test/captcha-solver.ts';
import { LOCAL_INTEGRATION, startTestServer, type TestServer } from '../../../server/test/harness.ts';
import { ApiError, createApiClient, NETWORK_ERROR } from './api-client.ts';

// The panel's API client against a real service on 127.0.0.1 (real HTTP, real signatures, real store).
let server: TestServer;
let tokens: TokenSet | undefined;
let email: string;
let apiKey: string;
let expired = 0;
const api = () =>
  createApiClient({
    baseUrl: server.url,
    tokens: () => tokens,
    onExpired: () => {
      expired += 1;
    },
    lang: () => 'en',
  });

beforeAll(async () => {
  server = await startTestServer({ env: LOCAL_INTEGRATION });
  ({ email, apiKey } = await server.newClient('Panel client'));
});
afterAll(() => server.close());

const solvedCaptcha = () => solvedCaptchaOf(server.running.app.services.panel);

const gameInput = (profileId: string): GameInput => ({
  profileId,
  gameModel: 'oxe-ganhei',
  lang: 'pt',
  currency: 'BRL',
  rtp: 0.9,
  sampling: 100_001,
  prizedPercent: 0.3,
  betPrice: 2,
  replacePreviousVersion: true,
});

describe('createApiClient against a real service', () => {
  it('gets a captcha challenge and signs in with panel-login and its solution', async () => {
    const challenge = await api().captcha();
    expect(challenge.parameters.algorithm).toBe('PBKDF2/SHA-256');
    tokens = await api().panelLogin({
      email,
      password: 'correct horse battery',
      captcha: await solveCaptcha(challenge),
    });
    expect(tokens.accessToken).toBeTruthy();
    expect(tokens.signatureToken).toBeTruthy();
  });

  it('turns an error envelope into an ApiError with its code and messages', async () => {
    const wrongCaptcha = await api()
      .panelLogin({ email, password: 'correct horse battery', captcha: 'nope:nope' })
      .catch((error: unknown) => error);
    expect(wrongCaptcha).toBeInstanceOf(ApiError);
    expect(wrongCaptcha).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect((wrongCaptcha as ApiError).messages[0]).toMatch(/^captcha/);
    const wrongPassword = await api()
      .panelLogin({ email, password: 'wrong password', captcha: await solvedCaptcha() })
      .catch((error: unknown) => error);
    expect(wrongPassword).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect(expired).toBe(0); // a refused sign-in is not an expired session
  });

  it('creates (signed POST), edits (signed PUT), reads and lists a profile', async () => {
    const created = await api().createProfile({
      name: 'Casa',
      type: 'operator',
      currency: 'BRL',
      currencies: ['BRL', 'USD'],
      walletUrl: 'http://127.0.0.1:9/wallet',
      walletSignatureToken: 'a wallet secret of 16+',
      allowedOrigins: ['https://casa.example'],
    });
    expect(created).toMatchObject({
      name: 'Casa',
      currencies: ['BRL', 'USD'],
      hasWalletSignatureToken: true,
    });
    const edited = await api().updateProfile(created.profileId, { name: 'Casa Nova', currencies: null });
    expect(edited).toMatchObject({
      name: 'Casa Nova',
      currencies: null,
      walletUrl: 'http://127.0.0.1:9/wallet',
    });
    expect(await api().getProfile(created.profileId)).toMatchObject({ name: 'Casa Nova' });
    const listed = await api().listProfiles({ pageSize: 10 });
    expect(listed.items.map((profile) => profile.profileId)).toContain(created.profileId);
    expect(listed.pagination).toMatchObject({ pageIndex: 1, pageSize: 10, totalCount: 1 });
  });

  it('carries one message per bad field of a 400', async () => {
    const failure = (await api()
      .createProfile({ name: '', type: 'operator' })
      .catch((error: unknown) => error)) as ApiError;
    expect(failure).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect(failure.messages.some((message) => message.startsWith('name'))).toBe(true);
  });

  it('simulates a game (nothing stored), creates it, lists every version and deactivates one', async () => {
    const { profileId } = (await api().listProfiles()).items[0] ?? { profileId: '' };
    const simulated = await api().simulateGame(gameInput(profileId));
    expect(simulated).toMatchObject({ id: null, version: null, totalLevels: 8 });
    expect(await api().listGames(profileId)).toEqual([]);
    const first = await api().createGame(gameInput(profileId));
    const second = await api().createGame({ ...gameInput(profileId), rtp: 0.85 });
    expect(first.levels).toEqual(simulated.levels);
    const games = await api().listGames(profileId);
    expect(games.map((game) => [game.version, game.active])).toEqual(
      expect.arrayContaining([
        [1, false],
        [2, true],
      ]),
    );
    await api().setGameActive(second.id ?? '', { profileId, active: false });
    expect((await api().listGames(profileId)).every((game) => !game.active)).toBe(true);
  });

  it('lists players, rounds and transactions with filters and paging', async () => {
    const { profileId } = (await api().listProfiles()).items[0] ?? { profileId: '' };
    const players = await api().listPlayers({ profileId, search: 'nobody', pageSize: 5 });
    expect(players).toEqual({ items: [], pagination: { pageIndex: 1, pageSize: 5, totalCount: 0 } });
    const rounds = await api().listRounds({ profileId, type: 'bet', dateStart: '2026-03-01', pageSize: 5 });
    expect(rounds.pagination).toMatchObject({ pageSize: 5, totalCount: 0 });
    const transactions = await api().listTransactions({ profileId, dateEnd: '2026-03-01' });
    expect(transactions.items).toEqual([]);
    const bad = (await api()
      .listRounds({ dateStart: '2026-03-02', dateEnd: '2026-03-01' })
      .catch((error: unknown) => error)) as ApiError;
    expect(bad).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(bad.messages[0]).toMatch(/dateStart/);
  });

  it("sets a player's limits and exclusion, ends a session, and sends a promotion's writes with an Idempotency-Key", async () => {
    const { profileId } = (await api().listProfiles()).items[0] ?? { profileId: '' };
    const [game] = await api().listGames(profileId);
    const user = await server.call('POST', '/v1/user/auth', {
      token: tokens ?? null,
      body: { profileId, credential: 'ana', credentialType: 'username' },
    });
    const userId = user.body.data.userId as string;
    const limits = await api().setLimits(userId, {
      limits: [{ type: 'loss', period: 'day', currency: 'BRL', amount: 5 }],
    });
    expect(limits.usage).toEqual([
      expect.objectContaining({ type: 'loss', used: 0, resetAt: expect.any(String) }),
    ]);
    expect(await api().getExclusion(userId)).toBeNull();
    expect(await api().exclude(userId, { reason: 'operator', until: null })).toMatchObject({
      reason: 'operator',
    });
    await api().liftExclusion(userId);
    expect(await api().getExclusion(userId)).toBeNull();

    // The versions above were all deactivated: a session needs an active one.
    const active = (await api().listGames(profileId)).find((version) => version.version === 2);
    await api().setGameActive(active?.id ?? '', { profileId, active: true });
    const session = await server.call('POST', '/v1/game/session', {
      token: tokens ?? null,
      body: { userToken: user.body.data.userToken, gameId: active?.id },
    });
    const sessionId = session.body.data.sessionId as string;
    const live = await api().listSessions(userId);
    expect(live.items).toEqual([
      expect.objectContaining({ id: sessionId, gameId: active?.id, status: 'live' }),
    ]);
    expect(live.pagination.totalCount).toBe(1);
    await api().endSession(sessionId);
    expect((await api().listSessions(userId)).items).toEqual([]);
    await expect(api().endSession('nope')).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });

    const body = {
      profileId,
      gameId: game?.id ?? '',
      name: 'Welcome',
      cardsPerPlayer: 2,
      players: [userId],
      expireAt: '2026-04-01T00:00:00.000Z',
    };
    const key = randomUUID();
    const created = await api().createPromotion(body, key);
    // A retry with the same key (a call that timed out, say) is answered again, not executed again.
    expect(await api().createPromotion(body, key)).toEqual(created);
    expect((await api().listPromotions({ profileId })).items).toHaveLength(1);
    expect(await api().addPromotionPlayers(created.promotionId, [userId], randomUUID())).toMatchObject({
      added: 0,
      alreadyGranted: 1,
    });
    expect((await api().freeCards(userId)).freeCards).toEqual([expect.objectContaining({ left: 2 })]);
    expect((await api().cancelPromotion(created.promotionId)).status).toBe('cancelled');
    expect((await api().getPromotion(created.promotionId)).status).toBe('cancelled');
  });

  it('registers a webhook, reads its (empty) delivery log with filters, and deletes it', async () => {
    const { webhookId } = await api().createWebhook({
      url: 'http://127.0.0.1:9/hooks',
      eventTriggers: ['close-round'],
      signatureToken: randomUUID(),
    });
    expect((await api().listWebhooks()).map((webhook) => webhook.id)).toContain(webhookId);
    const log = await api().listDeliveries(webhookId, { status: 'failed', pageSize: 10 });
    expect(log.pagination).toMatchObject({ totalCount: 0, successCount: 0, failureCount: 0 });
    await api().deleteWebhook(webhookId);
    expect((await api().listWebhooks()).map((webhook) => webhook.id)).not.toContain(webhookId);
  });

  it('reads the back office: report, CSV, round, pools, reconciliation and the audit of its own writes', async () => {
    const { profileId } = (await api().listProfiles()).items[0] ?? { profileId: '' };
    expect(await api().report({ profileId, groupBy: 'game', dateStart: '2026-03-01' })).toEqual([]);
    const csv = await api().roundsCsv({ profileId, pageSize: 5 });
    expect(csv.name).toBe('rounds.csv');
    expect(csv.text.split(/\r?\n/)[0]).toBe(
      '_id,profileId,gameId,userId,credential,status,paidPrice,prize,createdAt,endAt,promotionId',
    );
    const unknown = await api()
      .getRound('0123456789abcdef01234567')
      .catch((error: unknown) => error);
    expect(unknown).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    const [game] = await api().listGames(profileId);
    expect(await api().listPools(game?.id ?? '')).toEqual([]);
    expect((await api().listFlagged()).pagination).toMatchObject({ totalCount: 0 });
    const audit = await api().listAudit({ pageSize: 100 });
    expect(audit.items.map((entry) => entry.operation)).toContain('POST /v1/profile');
    // Every write was the panel's; the API key only logged in (newClient does).
    const byKey = audit.items.filter((entry) => entry.actor !== 'panel');
    expect(byKey.map((entry) => [entry.actor, entry.operation])).toEqual([['apiKey', 'POST /v1/auth/login']]);
  });

  it('rotates the apiKey: the new one logs in, the old one no longer does, the panel stays signed in', async () => {
    const { apiKey: fresh } = await api().rotateKey();
    expect(fresh).not.toBe(apiKey);
    const login = (key: string) => server.call('POST', '/v1/auth/login', { body: { apiKey: key } });
    expect((await login(apiKey)).status).toBe(401);
    expect((await login(fresh)).status).toBe(200);
    const operations = (await api().listAudit()).items.map((entry) => entry.operation);
    expect(operations.slice(0, 2)).toEqual(['POST /v1/auth/login', 'POST /v1/auth/rotate-key']);
    expect(expired).toBe(0);
  });

  it('is refused INVALID_SIGNATURE when the signature key is wrong, without calling it an expiry', async () => {
    const real = tokens as TokenSet;
    tokens = { ...real, signatureToken: 'not the key' };
    const failure = await api()
      .createProfile({ name: 'x', type: 'demo' })
      .catch((error: unknown) => error);
    tokens = real;
    expect(failure).toMatchObject({ status: 401, code: 'INVALID_SIGNATURE' });
    expect(expired).toBe(0);
  });

  it('changes the password, after which the old token set is refused and reported as expired', async () => {
    await api().changePassword({ currentPassword: 'correct horse battery', newPassword: 'a brand new one' });
    await expect(api().listProfiles()).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect(expired).toBe(1);
    tokens = await api().panelLogin({ email, password: 'a brand new one', captcha: await solvedCaptcha() });
    expect((await api().listProfiles()).items).toHaveLength(1);
  });

  it('signs out: the token set is ended on the service, and its next request is reported as expired', async () => {
    const before = expired;
    await api().signOut();
    await expect(api().listProfiles()).rejects.toMatchObject({ status: 401 });
    expect(expired).toBe(before + 1);
    tokens = await api().panelLogin({ email, password: 'a brand new one', captcha: await solvedCaptcha() });
    expect((await api().listProfiles()).items).toHaveLength(1);
  });

  it('says NETWORK_ERROR when the service cannot be reached', async () => {
    const offline = createApiClient({ baseUrl: 'http://127.0.0.1:9', tokens: () => undefined });
    await expect(offline.captcha()).rejects.toMatchObject({ status: 0, code: NETWORK_ERROR });
  });
});
