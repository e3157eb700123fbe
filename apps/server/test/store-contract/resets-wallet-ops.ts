import { describe, expect, it } from 'vitest';
import {
  at,
  captchaRecord,
  demoCallRecord,
  MAX_MINOR,
  type OpenStore,
  outboxEvent,
  resetTokenRecord,
  seedClient,
  seedGame,
  seedPool,
  seedRound,
  seedSeat,
  seedWebhook,
  useStore,
} from './fixtures.ts';

/** ResetsRepo (reset tokens, captchas), DemoWalletRepo, IdempotencyRepo, RateLimitsRepo and OpsRepo. */
export function describeResetsWalletOpsContract(open: OpenStore): void {
  describe('reset tokens', () => {
    const store = useStore(open);
    const token = async (over: Parameters<typeof resetTokenRecord>[1] = {}) => {
      const client = await seedClient(store());
      const record = resetTokenRecord(client.id, over);
      await store().resets.insertResetToken(record);
      return record;
    };

    it('finds a token that is unused and not expired', async () => {
      const record = await token({ expireAt: at(1800) });
      expect(await store().resets.findLiveResetToken(record.tokenHash, at(1799))).toEqual(record);
      expect(await store().resets.findLiveResetToken(record.tokenHash, at(1800))).toBeUndefined();
      expect(await store().resets.findLiveResetToken('unknown', at(0))).toBeUndefined();
    });

    it('ignores a used token', async () => {
      const record = await token({ usedAt: at(5) });
      expect(await store().resets.findLiveResetToken(record.tokenHash, at(10))).toBeUndefined();
    });

    it('uses a live token once: it comes back marked used, then never again', async () => {
      const record = await token();
      expect(await store().resets.useResetToken(record.tokenHash, at(60))).toEqual({
        ...record,
        usedAt: at(60),
      });
      expect(await store().resets.useResetToken(record.tokenHash, at(61))).toBeUndefined();
      expect(await store().resets.findLiveResetToken(record.tokenHash, at(62))).toBeUndefined();
    });

    it('uses no expired or unknown token', async () => {
      const record = await token({ expireAt: at(1800) });
      expect(await store().resets.useResetToken(record.tokenHash, at(1800))).toBeUndefined();
      expect(await store().resets.useResetToken('unknown', at(0))).toBeUndefined();
      expect(await store().resets.findLiveResetToken(record.tokenHash, at(1))).toEqual(record);
    });

    it('lets exactly one of concurrent uses of a token have it', async () => {
      const record = await token();
      const uses = await Promise.all(
        Array.from({ length: 5 }, (_, i) => store().resets.useResetToken(record.tokenHash, at(10 + i))),
      );
      expect(uses.filter((use) => use !== undefined)).toHaveLength(1);
    });

    it('forgets a client’s unused tokens only, returning how many', async () => {
      const client = await seedClient(store());
      const other = await seedClient(store());
      const unused = resetTokenRecord(client.id);
      const expired = resetTokenRecord(client.id, { expireAt: at(-1) });
      const used = resetTokenRecord(client.id, { usedAt: at(1) });
      const theirs = resetTokenRecord(other.id);
      for (const record of [unused, expired, used, theirs]) await store().resets.insertResetToken(record);
      expect(await store().resets.deleteUnusedResetTokens(client.id)).toBe(2);
      expect(await store().resets.findLiveResetToken(unused.tokenHash, at(2))).toBeUndefined();
      expect(await store().resets.findLiveResetToken(theirs.tokenHash, at(2))).toEqual(theirs);
      expect(await store().resets.deleteUnusedResetTokens(client.id)).toBe(0);
    });
  });

  describe('captchas', () => {
    const store = useStore(open);

    it('uses a live captcha once: it comes back marked used, then never again', async () => {
      const captcha = captchaRecord({ expireAt: at(300) });
      await store().resets.insertCaptcha(captcha);
      expect(await store().resets.useCaptcha(captcha.id, at(10))).toEqual({ ...captcha, usedAt: at(10) });
      expect(await store().resets.useCaptcha(captcha.id, at(11))).toBeUndefined();
    });

    it('uses no expired or unknown captcha', async () => {
      const captcha = captchaRecord({ expireAt: at(300) });
      await store().resets.insertCaptcha(captcha);
      expect(await store().resets.useCaptcha(captcha.id, at(300))).toBeUndefined();
      expect(await store().resets.useCaptcha('unknown', at(0))).toBeUndefined();
    });

    it('lets exactly one of concurrent guesses use a captcha', async () => {
      const captcha = captchaRecord();
      await store().resets.insertCaptcha(captcha);
      const uses = await Promise.all(
        Array.from({ length: 5 }, () => store().resets.useCaptcha(captcha.id, at(1))),
      );
      expect(uses.filter((use) => use !== undefined)).toHaveLength(1);
    });

    it('deletes the captchas expired at a time, returning how many', async () => {
      const old = captchaRecord({ expireAt: at(100) });
      const edge = captchaRecord({ expireAt: at(200) });
      const live = captchaRecord({ expireAt: at(300) });
      for (const captcha of [old, edge, live]) await store().resets.insertCaptcha(captcha);
      expect(await store().resets.deleteExpiredCaptchas(at(200))).toBe(2);
      expect(await store().resets.deleteExpiredCaptchas(at(200))).toBe(0);
      expect(await store().resets.useCaptcha(live.id, at(250))).toEqual({ ...live, usedAt: at(250) });
    });
  });

  describe('demo wallet', () => {
    const store = useStore(open);

    it('keeps one balance per player and currency, none before its account exists', async () => {
      const seat = await seedSeat(store());
      const player = seat.player.id;
      expect(await store().demoWallet.findBalance(player, 'BRL')).toBeUndefined();
      await store().demoWallet.insertAccount(player, 'BRL', 100_000);
      await store().demoWallet.insertAccount(player, 'USD', 0);
      expect(await store().demoWallet.findBalance(player, 'BRL')).toBe(100_000);
      expect(await store().demoWallet.findBalance(player, 'USD')).toBe(0);
      expect(await store().demoWallet.findBalance(player, 'EUR')).toBeUndefined();
      await store().demoWallet.setBalance(player, 'USD', MAX_MINOR);
      expect(await store().demoWallet.findBalance(player, 'USD')).toBe(MAX_MINOR);
      expect(await store().demoWallet.findBalance(player, 'BRL')).toBe(100_000);
    });

    it('sets one player’s balance only', async () => {
      const seat = await seedSeat(store());
      const other = (await seedSeat(store(), { client: seat.client })).player.id;
      await store().demoWallet.insertAccount(seat.player.id, 'BRL', 500);
      await store().demoWallet.insertAccount(other, 'BRL', 500);
      await store().demoWallet.setBalance(seat.player.id, 'BRL', 0);
      expect(await store().demoWallet.findBalance(seat.player.id, 'BRL')).toBe(0);
      expect(await store().demoWallet.findBalance(other, 'BRL')).toBe(500);
    });

    it('refuses a second account of one player in one currency', async () => {
      const seat = await seedSeat(store());
      await store().demoWallet.insertAccount(seat.player.id, 'BRL', 1);
      await expect(store().demoWallet.insertAccount(seat.player.id, 'BRL', 2)).rejects.toThrow();
      expect(await store().demoWallet.findBalance(seat.player.id, 'BRL')).toBe(1);
    });

    it('keeps each call by transaction id, its first answer verbatim', async () => {
      const seat = await seedSeat(store());
      const call = demoCallRecord(seat.player.id, {
        amountMinor: MAX_MINOR,
        answer: '{"balance":12.5,"currency":"BRL","note":"ção"}',
      });
      await store().demoWallet.insertCall(call);
      expect(await store().demoWallet.findCall(call.transactionId)).toEqual(call);
      expect(await store().demoWallet.findCall('nope')).toBeUndefined();
      await expect(
        store().demoWallet.insertCall(demoCallRecord(seat.player.id, { transactionId: call.transactionId })),
      ).rejects.toThrow();
    });

    it('changes a call’s kind only', async () => {
      const seat = await seedSeat(store());
      const call = demoCallRecord(seat.player.id, { kind: 'bet' });
      const voided = demoCallRecord(seat.player.id, { kind: 'voided' });
      await store().demoWallet.insertCall(call);
      await store().demoWallet.insertCall(voided);
      await store().demoWallet.setCallKind(call.transactionId, 'bet-rolled-back');
      expect(await store().demoWallet.findCall(call.transactionId)).toEqual({
        ...call,
        kind: 'bet-rolled-back',
      });
      expect(await store().demoWallet.findCall(voided.transactionId)).toEqual(voided);
    });
  });

  describe('idempotency keys', () => {
    const store = useStore(open);
    const claim = (clientId: string, key: string, fingerprint = 'fp-1', expiresAt = at(86_400)) => ({
      clientId,
      key,
      fingerprint,
      createdAt: at(0),
      expiresAt,
    });

    it('claims a key in progress, nothing answered yet', async () => {
      const client = await seedClient(store());
      expect(await store().idempotency.insertClaim(claim(client.id, 'k1'))).toBe(true);
      expect(await store().idempotency.find(client.id, 'k1')).toEqual({
        clientId: client.id,
        key: 'k1',
        fingerprint: 'fp-1',
        state: 'in_progress',
        responseStatus: null,
        responseBody: null,
        createdAt: at(0),
        expiresAt: at(86_400),
        completedAt: null,
      });
      expect(await store().idempotency.find(client.id, 'k2')).toBeUndefined();
    });

    it('refuses a second claim of a key the client holds, keeping the first', async () => {
      const client = await seedClient(store());
      await store().idempotency.insertClaim(claim(client.id, 'k1', 'fp-first'));
      expect(await store().idempotency.insertClaim(claim(client.id, 'k1', 'fp-second'))).toBe(false);
      expect(await store().idempotency.find(client.id, 'k1')).toMatchObject({ fingerprint: 'fp-first' });
    });

    it('keeps keys per client: another client may claim the same key', async () => {
      const client = await seedClient(store());
      const other = await seedClient(store());
      expect(await store().idempotency.insertClaim(claim(client.id, 'shared'))).toBe(true);
      expect(await store().idempotency.insertClaim(claim(other.id, 'shared', 'fp-other'))).toBe(true);
      expect(await store().idempotency.find(other.id, 'shared')).toMatchObject({ fingerprint: 'fp-other' });
    });

    it('lets exactly one of concurrent claims of a key win', async () => {
      const client = await seedClient(store());
      const claims = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          store().idempotency.insertClaim(claim(client.id, 'race', `fp-${i}`)),
        ),
      );
      expect(claims.filter(Boolean)).toHaveLength(1);
    });

    it('completes an in-progress claim with its answer, once', async () => {
      const client = await seedClient(store());
      await store().idempotency.insertClaim(claim(client.id, 'k1'));
      const answer = { status: 201, body: '{"status":"success","data":{"id":"x"}}', completedAt: at(2) };
      expect(await store().idempotency.complete(client.id, 'k1', answer)).toBe(true);
      expect(await store().idempotency.find(client.id, 'k1')).toEqual({
        clientId: client.id,
        key: 'k1',
        fingerprint: 'fp-1',
        state: 'completed',
        responseStatus: 201,
        responseBody: answer.body,
        createdAt: at(0),
        expiresAt: at(86_400),
        completedAt: at(2),
      });
      expect(await store().idempotency.complete(client.id, 'k1', { ...answer, status: 500 })).toBe(false);
      expect(await store().idempotency.find(client.id, 'k1')).toMatchObject({ responseStatus: 201 });
      expect(await store().idempotency.complete(client.id, 'unknown', answer)).toBe(false);
    });

    it('releases an in-progress claim, so the key can be claimed again', async () => {
      const client = await seedClient(store());
      await store().idempotency.insertClaim(claim(client.id, 'k1'));
      expect(await store().idempotency.release(client.id, 'k1')).toBe(true);
      expect(await store().idempotency.find(client.id, 'k1')).toBeUndefined();
      expect(await store().idempotency.release(client.id, 'k1')).toBe(false);
      expect(await store().idempotency.insertClaim(claim(client.id, 'k1'))).toBe(true);
    });

    it('releases no completed claim', async () => {
      const client = await seedClient(store());
      await store().idempotency.insertClaim(claim(client.id, 'k1'));
      await store().idempotency.complete(client.id, 'k1', { status: 200, body: '{}', completedAt: at(1) });
      expect(await store().idempotency.release(client.id, 'k1')).toBe(false);
      expect(await store().idempotency.find(client.id, 'k1')).toMatchObject({ state: 'completed' });
    });

    it('deletes the keys expired at a time, in progress or completed, returning how many', async () => {
      const client = await seedClient(store());
      await store().idempotency.insertClaim(claim(client.id, 'old', 'fp', at(100)));
      await store().idempotency.insertClaim(claim(client.id, 'edge', 'fp', at(200)));
      await store().idempotency.complete(client.id, 'edge', { status: 200, body: '{}', completedAt: at(1) });
      await store().idempotency.insertClaim(claim(client.id, 'live', 'fp', at(300)));
      expect(await store().idempotency.deleteExpired(at(200))).toBe(2);
      expect(await store().idempotency.find(client.id, 'old')).toBeUndefined();
      expect(await store().idempotency.find(client.id, 'edge')).toBeUndefined();
      expect(await store().idempotency.find(client.id, 'live')).toMatchObject({ state: 'in_progress' });
      expect(await store().idempotency.deleteExpired(at(200))).toBe(0);
    });
  });

  describe('rate-limit counters', () => {
    const store = useStore(open);
    /** Milliseconds on the service clock: 2030-01-01, past 2^31 as every real clock is. */
    const T = Date.UTC(2030, 0, 1);
    const W = 60_000;

    it('counts a first hit: 1, in a window of windowMs from now', async () => {
      expect(await store().rateLimits.hit('login:1.2.3.4', T, W)).toEqual({ hits: 1, resetAt: T + W });
      expect(await store().rateLimits.find('login:1.2.3.4', T)).toEqual({ hits: 1, resetAt: T + W });
    });

    it('counts further hits in the same window without moving its end', async () => {
      await store().rateLimits.hit('k', T, W);
      expect(await store().rateLimits.hit('k', T + 1_000, W)).toEqual({ hits: 2, resetAt: T + W });
      expect(await store().rateLimits.hit('k', T + W - 1, W)).toEqual({ hits: 3, resetAt: T + W });
    });

    it('starts a new window at 1 once the old one ended', async () => {
      await store().rateLimits.hit('k', T, W);
      await store().rateLimits.hit('k', T + 1, W);
      expect(await store().rateLimits.hit('k', T + W, W)).toEqual({ hits: 1, resetAt: T + 2 * W });
    });

    it('restarts the window with every hit up to slideUpTo, then holds it', async () => {
      const hits = [];
      for (let i = 0; i < 5; i++) hits.push(await store().rateLimits.hit('k', T + i * 10, W, 3));
      expect(hits).toEqual([
        { hits: 1, resetAt: T + W },
        { hits: 2, resetAt: T + 10 + W },
        { hits: 3, resetAt: T + 20 + W },
        { hits: 4, resetAt: T + 20 + W },
        { hits: 5, resetAt: T + 20 + W },
      ]);
    });

    it('counts each key on its own', async () => {
      await store().rateLimits.hit('a', T, W);
      await store().rateLimits.hit('a', T, W);
      expect(await store().rateLimits.hit('b', T, W)).toEqual({ hits: 1, resetAt: T + W });
      expect(await store().rateLimits.find('a', T)).toEqual({ hits: 2, resetAt: T + W });
    });

    it('finds no counter that is unknown or whose window ended', async () => {
      await store().rateLimits.hit('k', T, W);
      expect(await store().rateLimits.find('k', T + W - 1)).toEqual({ hits: 1, resetAt: T + W });
      expect(await store().rateLimits.find('k', T + W)).toBeUndefined();
      expect(await store().rateLimits.find('unknown', T)).toBeUndefined();
    });

    it('loses no hit of concurrent callers', async () => {
      const counted = await Promise.all(Array.from({ length: 10 }, () => store().rateLimits.hit('k', T, W)));
      expect(counted.map((c) => c.hits).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(await store().rateLimits.find('k', T)).toEqual({ hits: 10, resetAt: T + W });
    });

    it('takes one hit back, never below zero, keeping the window', async () => {
      await store().rateLimits.hit('k', T, W);
      await store().rateLimits.hit('k', T, W);
      await store().rateLimits.decrement('k');
      expect(await store().rateLimits.find('k', T)).toEqual({ hits: 1, resetAt: T + W });
      await store().rateLimits.decrement('k');
      await store().rateLimits.decrement('k');
      expect(await store().rateLimits.find('k', T)).toEqual({ hits: 0, resetAt: T + W });
      await store().rateLimits.decrement('unknown');
      expect(await store().rateLimits.find('unknown', T)).toBeUndefined();
    });

    it('resets one counter only', async () => {
      await store().rateLimits.hit('a', T, W);
      await store().rateLimits.hit('b', T, W);
      await store().rateLimits.reset('a');
      expect(await store().rateLimits.find('a', T)).toBeUndefined();
      expect(await store().rateLimits.find('b', T)).toEqual({ hits: 1, resetAt: T + W });
      expect(await store().rateLimits.hit('a', T, W)).toEqual({ hits: 1, resetAt: T + W });
    });

    it('resets every counter whose key starts with a prefix, taken literally', async () => {
      for (const key of ['login:1', 'login:2', 'login-x', 'loginX1', 'forgot:1', 'a_%:1', 'abc:1', 'a_%']) {
        await store().rateLimits.hit(key, T, W);
      }
      await store().rateLimits.resetPrefix('login:');
      await store().rateLimits.resetPrefix('a_%:');
      const left = [];
      for (const key of ['login:1', 'login:2', 'login-x', 'loginX1', 'forgot:1', 'a_%:1', 'abc:1', 'a_%']) {
        if (await store().rateLimits.find(key, T)) left.push(key);
      }
      expect(left).toEqual(['login-x', 'loginX1', 'forgot:1', 'abc:1', 'a_%']);
    });

    it('deletes the counters whose window ended, returning how many', async () => {
      await store().rateLimits.hit('old', T, W);
      await store().rateLimits.hit('edge', T + 10, W);
      await store().rateLimits.hit('live', T + 20, W);
      expect(await store().rateLimits.deleteExpired(T + 10 + W)).toBe(2);
      expect(await store().rateLimits.deleteExpired(T + 10 + W)).toBe(0);
      expect(await store().rateLimits.find('live', T + 10 + W)).toEqual({ hits: 1, resetAt: T + 20 + W });
    });
  });

  describe('ops', () => {
    const store = useStore(open);

    it('reports a fresh store healthy', async () => {
      expect(await store().ops.health()).toEqual({ ok: true });
    });

    it('reports an empty webhook backlog', async () => {
      expect(await store().ops.webhookBacklog()).toEqual({ queued: 0, oldestCreatedAt: null });
    });

    it('counts the queued webhook events and the oldest one’s time, nothing else', async () => {
      const seat = await seedSeat(store());
      const round = await seedRound(store(), seat);
      const a = await seedWebhook(store(), seat.client.id);
      const b = await seedWebhook(store(), seat.client.id);
      const queue = async (webhookId: string, createdAt: string) => {
        const event = outboxEvent(webhookId, round.id, { createdAt });
        await store().outbox.insert(event);
        return event;
      };
      const delivered = await queue(a.id, at(1));
      await store().outbox.markDelivered(delivered.id, 1);
      const failed = await queue(b.id, at(2));
      await store().outbox.failMany([
        { id: failed.id, attempts: 3, firstFailureAt: at(3), nextAttemptAt: null },
      ]);
      await queue(a.id, at(20));
      await queue(b.id, at(10));
      await queue(b.id, at(30));
      expect(await store().ops.webhookBacklog()).toEqual({ queued: 3, oldestCreatedAt: at(10) });
      await store().outbox.dropQueued(b.id);
      expect(await store().ops.webhookBacklog()).toEqual({ queued: 1, oldestCreatedAt: at(20) });
    });

    it('lists the current pool of each active game with the tickets left', async () => {
      const seat = await seedSeat(store());
      const frevo = await seedGame(store(), seat.profile, { gameModel: 'frevo-da-sorte' });
      const inactive = await seedGame(store(), seat.profile, { gameModel: 'fera-sortuda', active: false });
      await seedPool(store(), seat.game, {
        number: 1,
        sampling: 10,
        draws: 10,
        endedAt: at(1),
        seedHex: '1'.repeat(64),
      });
      const running = await seedPool(store(), seat.game, { number: 2, sampling: 10 });
      // While a pool runs, its tickets drawn are the rounds that drew from its blocks.
      await store().pools.takeBlock(running.id, 'me', 10, at(0), at(30));
      for (const drawIndex of [0, 4, 7])
        await seedRound(store(), seat, { poolId: running.id, drawIndex, level: 0 });
      await seedPool(store(), frevo, { sampling: 200_000, draws: 0 });
      await seedPool(store(), inactive, { sampling: 10, draws: 1 });
      const pools = await store().ops.currentPools();
      expect([...pools].sort((x, y) => x.gameId.localeCompare(y.gameId))).toEqual(
        [
          { gameId: seat.game.id, gameModel: 'oxe-ganhei', ticketsLeft: 7, tickets: 10 },
          { gameId: frevo.id, gameModel: 'frevo-da-sorte', ticketsLeft: 200_000, tickets: 200_000 },
        ].sort((x, y) => x.gameId.localeCompare(y.gameId)),
      );
    });

    it('lists no pools on an empty store', async () => {
      expect(await store().ops.currentPools()).toEqual([]);
    });
  });
}
