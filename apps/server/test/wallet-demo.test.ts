import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../src/logger.ts';
import { PROFILE_PROTECTION_DEFAULTS } from '../src/store/records.ts';
import type { Store } from '../src/store/store.ts';
import { createDemoWallet } from '../src/wallet/demo-wallet.ts';
import type { Wallet, WalletAnswer, WalletMovement, WalletRollback } from '../src/wallet/wallet.ts';
import { useRunStore } from './run-store.ts';

const NOW = '2026-03-01T12:00:00.000Z';
const runStore = useRunStore();
let store: Store;
let wallet: Wallet;
let players = 0;

beforeAll(async () => {
  store = runStore.store;
  await store.clients.insertClient({
    id: 'client-1',
    name: 'Demo',
    email: 'demo@example.test',
    apiKeyHash: 'hash',
    passwordHash: null,
    lang: 'en',
    createdAt: NOW,
  });
  for (const currency of ['BRL', 'JPY', 'KWD']) {
    await store.profiles.insert({
      id: `profile-${currency}`,
      clientId: 'client-1',
      name: `Demo ${currency}`,
      type: 'demo',
      currency,
      currencies: null,
      walletUrl: null,
      walletTokenSealed: null,
      allowedOrigins: [],
      ...PROFILE_PROTECTION_DEFAULTS,
      createdAt: NOW,
      updatedAt: NOW,
    });
  }
  wallet = createDemoWallet(store, { clock: () => new Date(NOW), logger: silentLogger });
});

/** A fresh demo player (the account table references players). */
async function newPlayer(currency = 'BRL') {
  const id = `player-${++players}`;
  await store.players.insert({
    id,
    clientId: 'client-1',
    profileId: `profile-${currency}`,
    credential: `${id}@example.test`,
    credentialType: 'email',
    balanceMinor: 0,
    betWins: 0,
    totalBets: 0,
    createdAt: NOW,
  });
  const player = { sessionId: 'session-1', userId: id, credential: `${id}@example.test`, currency };
  let n = 0;
  const movement = (amountMinor: number, transactionId = `${id}-tx-${++n}`): WalletMovement => ({
    ...player,
    transactionId,
    roundId: `${id}-round`,
    amountMinor,
    gameId: 'game-1',
    gameModel: 'oxe-ganhei',
  });
  const rollbackOf = (original: string, amountMinor = 1): WalletRollback => ({
    ...movement(amountMinor),
    originalTransactionId: original,
  });
  return { player, movement, rollbackOf };
}

const ok = (balanceMinor: number): WalletAnswer => ({ kind: 'ok', balanceMinor });

describe('the demo wallet', () => {
  it.each([
    ['BRL', 100_000],
    ['JPY', 1000],
    ['KWD', 1_000_000],
  ])('starts a %s player with 1,000 major units', async (currency, minor) => {
    const { player } = await newPlayer(currency);
    expect(await wallet.balance(player)).toEqual(ok(minor));
    expect(await store.demoWallet.findBalance(player.userId, currency)).toBe(minor);
  });

  it('debits a bet, credits a prize, and a rollback re-credits the bet', async () => {
    const { movement, rollbackOf, player } = await newPlayer();
    const bet = movement(250);
    expect(await wallet.bet(bet)).toEqual(ok(99_750));
    expect(await wallet.prize(movement(1_000))).toEqual(ok(100_750));
    expect(await wallet.rollback(rollbackOf(bet.transactionId, 250))).toEqual(ok(101_000));
    expect(await wallet.balance(player)).toEqual(ok(101_000));
    expect(await store.demoWallet.findCall(bet.transactionId)).toMatchObject({
      kind: 'bet-rolled-back',
      amountMinor: 250,
      createdAt: NOW,
    });
  });

  it('opens the account on a first bet too', async () => {
    const { movement } = await newPlayer();
    expect(await wallet.bet(movement(1))).toEqual(ok(99_999));
  });

  it('declines a bet larger than the balance with INSUFFICIENT_FUNDS, and moves nothing', async () => {
    const { movement, player } = await newPlayer();
    expect(await wallet.bet(movement(100_001))).toEqual({
      kind: 'declined',
      code: 'INSUFFICIENT_FUNDS',
      message: 'The balance is lower than the bet.',
      httpStatus: 402,
    });
    expect(await wallet.bet(movement(100_000))).toEqual(ok(0));
    expect(await wallet.bet(movement(1))).toMatchObject({ kind: 'declined', code: 'INSUFFICIENT_FUNDS' });
    expect(await wallet.balance(player)).toEqual(ok(0));
  });

  it('answers a repeated transactionId with the first answer, even with another amount', async () => {
    const { movement, player } = await newPlayer();
    const bet = movement(300);
    expect(await wallet.bet(bet)).toEqual(ok(99_700));
    expect(await wallet.bet(bet)).toEqual(ok(99_700));
    expect(await wallet.bet({ ...bet, amountMinor: 5_000 })).toEqual(ok(99_700));
    const prize = movement(50);
    expect(await wallet.prize(prize)).toEqual(ok(99_750));
    expect(await wallet.prize(prize)).toEqual(ok(99_750));
    expect(await wallet.balance(player)).toEqual(ok(99_750));
  });

  it('replays a decline too, even once the balance would allow the bet', async () => {
    const { movement } = await newPlayer();
    const big = movement(150_000);
    const declined = await wallet.bet(big);
    expect(declined).toMatchObject({ kind: 'declined', code: 'INSUFFICIENT_FUNDS' });
    await wallet.prize(movement(100_000));
    expect(await wallet.bet(big)).toEqual(declined);
  });

  it('re-credits a bet once, however many rollbacks name it', async () => {
    const { movement, rollbackOf, player } = await newPlayer();
    const bet = movement(400);
    await wallet.bet(bet);
    const rollback = rollbackOf(bet.transactionId, 400);
    expect(await wallet.rollback(rollback)).toEqual(ok(100_000));
    expect(await wallet.rollback(rollback)).toEqual(ok(100_000));
    expect(await wallet.rollback(rollbackOf(bet.transactionId, 400))).toEqual(ok(100_000));
    expect(await wallet.balance(player)).toEqual(ok(100_000));
  });

  it('answers a rollback of a declined bet with the balance, giving nothing back', async () => {
    const { movement, rollbackOf } = await newPlayer();
    const bet = movement(200_000);
    await wallet.bet(bet);
    expect(await wallet.rollback(rollbackOf(bet.transactionId, 200_000))).toEqual(ok(100_000));
  });

  it('answers a rollback of an unknown transaction with the balance, and refuses that bet if it comes late', async () => {
    const { movement, rollbackOf, player } = await newPlayer();
    await wallet.bet(movement(100));
    expect(await wallet.rollback(rollbackOf('never-seen'))).toEqual(ok(99_900));
    expect(await wallet.bet(movement(100, 'never-seen'))).toEqual({
      kind: 'declined',
      code: 'TRANSACTION_ROLLED_BACK',
      message: 'This transaction was rolled back.',
      httpStatus: 409,
    });
    expect(await wallet.balance(player)).toEqual(ok(99_900));
  });

  it('refuses to roll back a prize or another player’s bet', async () => {
    const first = await newPlayer();
    const second = await newPlayer();
    const prize = first.movement(500);
    await wallet.prize(prize);
    expect(await wallet.rollback(first.rollbackOf(prize.transactionId))).toMatchObject({
      kind: 'declined',
      code: 'NOT_A_BET',
      httpStatus: 409,
    });
    const bet = first.movement(500);
    await wallet.bet(bet);
    expect(await wallet.rollback(second.rollbackOf(bet.transactionId))).toMatchObject({
      kind: 'declined',
      code: 'TRANSACTION_MISMATCH',
    });
    expect(await wallet.balance(first.player)).toEqual(ok(100_000));
    expect(await wallet.balance(second.player)).toEqual(ok(100_000));
  });

  it('refuses amounts that are not positive whole minor units, recording nothing', async () => {
    const { movement, rollbackOf } = await newPlayer();
    for (const amountMinor of [0, -5, 1.5, Number.NaN]) {
      const bet = movement(amountMinor);
      expect(await wallet.bet(bet)).toMatchObject({
        kind: 'declined',
        code: 'INVALID_AMOUNT',
        httpStatus: 400,
      });
      expect(await store.demoWallet.findCall(bet.transactionId)).toBeUndefined();
    }
    const selfish = { ...rollbackOf('x'), transactionId: 'same', originalTransactionId: 'same' };
    expect(await wallet.rollback(selfish)).toMatchObject({ kind: 'declined', code: 'INVALID_REQUEST' });
  });

  it('answers unknown, never throws, when the database refuses the call', async () => {
    // No such player: the account's foreign key fails inside the transaction.
    const answer = await wallet.balance({
      sessionId: 's',
      userId: 'nobody',
      credential: 'x',
      currency: 'BRL',
    });
    expect(answer).toEqual({ kind: 'unknown', reason: expect.stringMatching(/^demo wallet failure: /) });
  });

  it('keeps the balance right under concurrent calls', async () => {
    const { movement, player } = await newPlayer();
    const answers = await Promise.all(Array.from({ length: 50 }, () => wallet.bet(movement(3_000))));
    expect(answers.filter((answer) => answer.kind === 'ok')).toHaveLength(33);
    expect(answers.filter((answer) => answer.kind === 'declined')).toHaveLength(17);
    expect(await wallet.balance(player)).toEqual(ok(100_000 - 33 * 3_000));
    const bet = movement(100);
    const repeats = await Promise.all(Array.from({ length: 20 }, () => wallet.bet(bet)));
    expect(new Set(repeats.map((answer) => JSON.stringify(answer))).size).toBe(1);
    expect(await wallet.balance(player)).toEqual(ok(100_000 - 33 * 3_000 - 100));
  });
});

/** Calls drawn from a small pool of ids, so repeats, late bets and cross-kind collisions happen. */
type Op =
  | { type: 'bet'; id: number; amount: number }
  | { type: 'prize'; id: number; amount: number }
  | { type: 'rollback'; id: number; original: number; amount: number }
  | { type: 'balance' };

const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    type: fc.constant('bet' as const),
    id: fc.nat(11),
    amount: fc.integer({ min: 1, max: 60_000 }),
  }),
  fc.record({
    type: fc.constant('prize' as const),
    id: fc.nat(11),
    amount: fc.integer({ min: 1, max: 20_000 }),
  }),
  fc.record({
    type: fc.constant('rollback' as const),
    id: fc.nat(11),
    original: fc.nat(11),
    amount: fc.integer({ min: 1, max: 60_000 }),
  }),
  fc.constant({ type: 'balance' as const }),
);

describe('the demo wallet, for any sequence of calls', () => {
  it('keeps balance = start − applied bets + prizes + rolled-back bets, never negative', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArbitrary, { maxLength: 40 }), async (ops) => {
        const { movement, player } = await newPlayer();
        const start = 100_000;
        // The reference: what each transactionId did the first time it was seen.
        const first = new Map<
          string,
          { kind: string; amount: number; applied: boolean; answer: WalletAnswer }
        >();
        let appliedBets = 0;
        let prizes = 0;
        let rolledBack = 0;
        const expected = () => start - appliedBets + prizes + rolledBack;
        for (const op of ops) {
          if (op.type === 'balance') {
            expect(await wallet.balance(player)).toEqual(ok(expected()));
            continue;
          }
          const id = `${player.userId}-t${op.id}`;
          const call = movement(op.amount, id);
          const answer =
            op.type === 'rollback'
              ? await wallet.rollback({ ...call, originalTransactionId: `${player.userId}-t${op.original}` })
              : await wallet[op.type](call);
          const seen = first.get(id);
          if (seen) {
            expect(answer).toEqual(seen.answer);
            continue;
          }
          if (op.type === 'rollback' && op.id === op.original) {
            expect(answer).toMatchObject({ kind: 'declined', code: 'INVALID_REQUEST' });
            continue;
          }
          if (op.type === 'bet') {
            const applied = expected() >= op.amount;
            if (applied) appliedBets += op.amount;
            expect(answer).toEqual(
              applied ? ok(expected()) : expect.objectContaining({ code: 'INSUFFICIENT_FUNDS' }),
            );
            first.set(id, { kind: 'bet', amount: op.amount, applied, answer });
          } else if (op.type === 'prize') {
            prizes += op.amount;
            expect(answer).toEqual(ok(expected()));
            first.set(id, { kind: 'prize', amount: op.amount, applied: true, answer });
          } else {
            const originalId = `${player.userId}-t${op.original}`;
            const original = first.get(originalId);
            if (!original) {
              first.set(originalId, {
                kind: 'voided',
                amount: 0,
                applied: false,
                answer: expect.objectContaining({ code: 'TRANSACTION_ROLLED_BACK' }),
              });
              expect(answer).toEqual(ok(expected()));
            } else if (original.kind === 'prize' || original.kind === 'rollback') {
              expect(answer).toMatchObject({ kind: 'declined', code: 'NOT_A_BET' });
            } else {
              if (original.kind === 'bet' && original.applied) {
                rolledBack += original.amount;
                original.applied = false;
              }
              expect(answer).toEqual(ok(expected()));
            }
            first.set(id, { kind: 'rollback', amount: op.amount, applied: true, answer });
          }
          expect(expected()).toBeGreaterThanOrEqual(0);
        }
        expect(await wallet.balance(player)).toEqual(ok(expected()));
      }),
      { numRuns: 150 },
    );
  });
});
