import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GameRecord, LedgerTransaction, RoundRecord, RoundStatus } from '../store/records.ts';
import type { WalletAnswer } from '../wallet/wallet.ts';
import { isoAfter, type WalletRetryPolicy } from './retry-schedule.ts';
import { newBet, newRound, type Ticket } from './round-records.ts';
import {
  betOutcome,
  claimPending,
  closeOutcome,
  firstPrizeOutcome,
  type LedgerChanges,
  prizeOutcome,
  rollBackUnansweredBet,
  rollbackOutcome,
} from './wallet-outcomes.ts';

const NOW = '2026-03-01T12:00:00.000Z';
const DAY = 86_400_000;
const retry: WalletRetryPolicy = {
  delaysMs: [1_000, 5_000, 600_000],
  prizeGiveUpMs: DAY,
  inFlightMs: 30_000,
};
const PRICE = 200;

const game = {
  id: 'game-1',
  clientId: 'client-1',
  profileId: 'profile-1',
  gameModel: 'model-1',
  currency: 'BRL',
  betMinor: PRICE,
  ladder: { levels: [] },
} as unknown as GameRecord;

const pendingRound = newRound(
  game,
  { roundId: 'round-1', playerId: 'player-1', sessionId: 'session-1' },
  NOW,
);
const pendingBet = newBet(pendingRound, 'bet-1', NOW, isoAfter(NOW, retry.inFlightMs));
const ticket: Ticket = {
  poolId: 'pool-1',
  drawIndex: 7,
  level: 2,
  cardJson: '{"cells":[]}',
  prizeMinor: 500,
};
const openRound: RoundRecord = {
  ...pendingRound,
  status: 'open',
  level: 2,
  cardJson: '{}',
  prizeMinor: 500,
  prizeTransactionId: 'prize-1',
};

const ok = (balanceMinor: number): WalletAnswer => ({ kind: 'ok', balanceMinor });
const declined = (code: string): WalletAnswer => ({ kind: 'declined', code, message: code, httpStatus: 400 });
const unknown = (reason: string): WalletAnswer => ({ kind: 'unknown', reason });

/** An id maker that must not be called. */
const noId = () => {
  throw new Error('no new record expected');
};
const ids = (prefix = 'id') => {
  let n = 0;
  return () => `${prefix}-${++n}`;
};

function pendingCall(type: 'prize' | 'rollback', over: Partial<LedgerTransaction> = {}): LedgerTransaction {
  return {
    ...pendingBet,
    id: `${type}-1`,
    type,
    amountMinor: type === 'prize' ? 500 : PRICE,
    originalTransactionId: type === 'rollback' ? 'bet-1' : null,
    attempts: 1,
    ...over,
  };
}

// ---- answers one at a time ----

describe('a bet’s answer', () => {
  it('ok: the round opens on the drawn ticket and the bet counts, with the balances around it', () => {
    const outcome = betOutcome(ok(9_800), pendingRound, pendingBet, ids('prize'), NOW);
    if (outcome.kind !== 'opened') throw new Error(outcome.kind);
    expect(outcome.balanceMinor).toBe(9_800);
    expect(outcome.open(ticket)).toEqual({
      round: {
        status: 'open',
        poolId: 'pool-1',
        drawIndex: 7,
        level: 2,
        cardJson: '{"cells":[]}',
        prizeMinor: 500,
        // A win's prize transactionId is fixed with the outcome: every sender of it uses this one.
        prizeTransactionId: 'prize-1',
        lastActionAt: NOW,
      },
      transactions: [
        {
          id: 'bet-1',
          change: {
            status: 'completed',
            balanceAfterMinor: 9_800,
            balanceBeforeMinor: 10_000,
            completedAt: NOW,
            nextAttemptAt: null,
          },
        },
      ],
      player: { balanceMinor: 9_800, betsAdded: 1, winsAdded: 0 },
      event: 'open-round',
    });
  });

  it('ok on a losing ticket: no prize, so no prize transactionId', () => {
    const outcome = betOutcome(ok(9_800), pendingRound, pendingBet, noId, NOW);
    if (outcome.kind !== 'opened') throw new Error(outcome.kind);
    expect(outcome.open({ ...ticket, level: 0, prizeMinor: 0 }).round?.prizeTransactionId).toBeNull();
  });

  it('declined: no round opens, the bet is declined with the wallet’s code, nothing to roll back', () => {
    expect(betOutcome(declined('INSUFFICIENT_FUNDS'), pendingRound, pendingBet, noId, NOW)).toEqual({
      kind: 'declined',
      code: 'INSUFFICIENT_FUNDS',
      changes: {
        round: { status: 'declined', endAt: NOW, lastActionAt: NOW },
        transactions: [
          {
            id: 'bet-1',
            change: { status: 'declined', lastError: 'INSUFFICIENT_FUNDS', nextAttemptAt: null },
          },
        ],
      },
    });
    const other = betOutcome(declined('REFUSED'), pendingRound, pendingBet, noId, NOW);
    expect(other).toMatchObject({ kind: 'declined', code: 'WALLET_DECLINED' });
  });

  it('declined LIMIT_REACHED or PLAYER_EXCLUDED: the player is told that, not WALLET_DECLINED (CONTRACT §13)', () => {
    for (const code of ['LIMIT_REACHED', 'PLAYER_EXCLUDED'] as const) {
      expect(betOutcome(declined(code), pendingRound, pendingBet, noId, NOW)).toMatchObject({
        kind: 'declined',
        code,
        changes: { transactions: [{ id: 'bet-1', change: { status: 'declined', lastError: code } }] },
      });
    }
  });

  it('declined with any other code: WALLET_DECLINED, the wallet’s code kept on the bet', () => {
    const passedOn = ['INSUFFICIENT_FUNDS', 'LIMIT_REACHED', 'PLAYER_EXCLUDED'];
    fc.assert(
      fc.property(
        fc.string().filter((code) => !passedOn.includes(code)),
        (code) => {
          const outcome = betOutcome(declined(code), pendingRound, pendingBet, noId, NOW);
          expect(outcome).toMatchObject({
            kind: 'declined',
            code: 'WALLET_DECLINED',
            changes: { transactions: [{ change: { lastError: code } }] },
          });
        },
      ),
    );
  });

  it('no definite answer: the round is voided, the bet `failed` and a rollback committed, due now', () => {
    const outcome = betOutcome(unknown('timeout'), pendingRound, pendingBet, ids('rb'), NOW);
    const rollback: LedgerTransaction = {
      ...pendingBet,
      id: 'rb-1',
      type: 'rollback',
      amountMinor: PRICE,
      originalTransactionId: 'bet-1',
      attempts: 0,
      nextAttemptAt: NOW,
    };
    expect(outcome).toEqual({
      kind: 'voided',
      code: 'WALLET_UNAVAILABLE',
      rollback,
      changes: {
        round: { status: 'voided', endAt: NOW, lastActionAt: NOW },
        transactions: [
          { id: 'bet-1', change: { status: 'failed', lastError: 'timeout', nextAttemptAt: null } },
        ],
        insert: rollback,
      },
    });
    expect(outcome).toEqual({
      kind: 'voided',
      code: 'WALLET_UNAVAILABLE',
      ...rollBackUnansweredBet(pendingRound, pendingBet, 'timeout', 'rb-1', NOW),
    });
  });

  it('too late (the retrier took the bet over, or it is gone): nothing changes, the wallet was unavailable', () => {
    const answers = fc.oneof(fc.integer().map(ok), fc.string().map(declined), fc.string().map(unknown));
    const statuses: RoundStatus[] = ['pending', 'open', 'closing', 'closed', 'declined', 'voided'];
    const betStatuses = ['pending', 'completed', 'declined', 'failed', 'missing'] as const;
    fc.assert(
      fc.property(
        answers,
        fc.constantFrom(...statuses),
        fc.constantFrom(...betStatuses),
        (answer, status, bet) => {
          fc.pre(status !== 'pending' || bet !== 'pending');
          const found = bet === 'missing' ? undefined : { ...pendingBet, status: bet };
          expect(betOutcome(answer, { ...pendingRound, status }, found, noId, NOW)).toEqual({
            kind: 'taken-over',
            code: 'WALLET_UNAVAILABLE',
          });
        },
      ),
    );
  });
});

describe('closing a round', () => {
  it('does nothing to a round that is not open', () => {
    for (const status of ['pending', 'closing', 'closed', 'declined', 'voided'] as const)
      expect(closeOutcome({ ...openRound, status }, retry, NOW)).toEqual({ kind: 'not-open' });
  });

  it('closes a lost round at once, with its close-round event', () => {
    expect(closeOutcome({ ...openRound, prizeMinor: 0 }, retry, NOW)).toEqual({
      kind: 'closed',
      changes: { round: { status: 'closed', endAt: NOW, lastActionAt: NOW }, event: 'close-round' },
    });
  });

  it('sends a won round’s prize under the id fixed at its opening, writing nothing first', () => {
    const outcome = closeOutcome(openRound, retry, NOW);
    if (outcome.kind !== 'paying') throw new Error(outcome.kind);
    expect(outcome).toEqual({ kind: 'paying', prize: outcome.prize });
    expect(outcome.prize).toMatchObject({
      id: 'prize-1',
      type: 'prize',
      amountMinor: 500,
      status: 'pending',
      attempts: 1, // the reveal's own
      createdAt: NOW,
      nextAttemptAt: isoAfter(NOW, retry.inFlightMs),
    });
    // Every closer of the round (two tabs, the idle close, a restart) sends the same transactionId.
    expect(closeOutcome(openRound, retry, isoAfter(NOW, 5_000))).toMatchObject({
      prize: { id: 'prize-1' },
    });
  });
});

describe('a won prize’s first answer, written with the close in one unit', () => {
  const close = closeOutcome(openRound, retry, NOW);
  if (close.kind !== 'paying') throw new Error(close.kind);
  const { prize } = close;
  const at = isoAfter(NOW, 40);

  it('ok: the prize inserted completed, the round closed, the win counted, close-round', () => {
    expect(firstPrizeOutcome(ok(10_500), prize, retry, at)).toEqual({
      kind: 'paid',
      balanceMinor: 10_500,
      changes: {
        insert: {
          ...prize,
          status: 'completed',
          balanceAfterMinor: 10_500,
          balanceBeforeMinor: 10_000,
          completedAt: at,
          nextAttemptAt: null,
          lastError: null,
        },
        round: { status: 'closed', endAt: at, lastActionAt: NOW },
        player: { balanceMinor: 10_500, betsAdded: 0, winsAdded: 1 },
        event: 'close-round',
      },
    });
  });

  it('no yes: the prize inserted pending for the retrier, the round closing, nothing counted', () => {
    expect(firstPrizeOutcome(unknown('timeout'), prize, retry, at)).toEqual({
      kind: 'retry',
      changes: {
        insert: { ...prize, lastError: 'timeout', nextAttemptAt: isoAfter(at, 1_000) },
        round: { status: 'closing', lastActionAt: NOW },
      },
    });
  });

  /**
   * What the two units before cut 6 wrote, one after the other: the close's (the prize committed
   * pending, the round closing) and the answer's (prizeOutcome). The one unit must leave the same.
   */
  const answers = fc.oneof(
    fc.integer({ min: 0, max: 1_000_000 }).map(ok),
    fc.constantFrom('INSUFFICIENT_FUNDS', 'REFUSED').map(declined),
    fc.constantFrom('timeout', 'http 503').map(unknown),
  );
  it('leaves, for every answer and time, what the close and the answer wrote before in two units', () => {
    fc.assert(
      fc.property(
        answers,
        fc.integer({ min: 0, max: 2 * DAY }),
        fc.integer({ min: 0, max: DAY }),
        (answer, gapMs, giveUpMs) => {
          const policy = { ...retry, prizeGiveUpMs: giveUpMs };
          const answeredAt = isoAfter(NOW, gapMs);
          const one = firstPrizeOutcome(answer, prize, policy, answeredAt);
          const two = prizeOutcome(answer, prize, policy, answeredAt);
          expect(one.kind).toBe(two.kind);
          const before: World = {
            round: openRound,
            calls: new Map(),
            statuses: new Map(),
            wallet: { balance: 0, seen: new Map(), rolledBack: new Set() },
            nowMs: 0,
            newId: noId,
          };
          const after = (world: World, ...steps: LedgerChanges[]) => {
            let round = world.round;
            const calls = new Map(world.calls);
            for (const changes of steps) {
              round = { ...round, ...changes.round };
              for (const { id, change } of changes.transactions ?? []) {
                const call = calls.get(id);
                if (call) calls.set(id, { ...call, ...change });
              }
              if (changes.insert) calls.set(changes.insert.id, changes.insert);
            }
            return { round, calls: [...calls.values()] };
          };
          const closing: LedgerChanges = { insert: prize, round: { status: 'closing', lastActionAt: NOW } };
          expect(after(before, one.changes)).toEqual(after(before, closing, two.changes));
          const { player, event } = two.changes;
          expect([one.changes.player, one.changes.event]).toEqual([player, event]);
        },
      ),
    );
  });
});

describe('a prize’s answer', () => {
  const prize = pendingCall('prize', { attempts: 2 });

  it('ok: paid, the round closes and the win counts', () => {
    expect(prizeOutcome(ok(10_500), prize, retry, NOW)).toEqual({
      kind: 'paid',
      balanceMinor: 10_500,
      changes: {
        transactions: [
          {
            id: 'prize-1',
            change: {
              status: 'completed',
              balanceAfterMinor: 10_500,
              balanceBeforeMinor: 10_000,
              completedAt: NOW,
              nextAttemptAt: null,
              lastError: null,
            },
          },
        ],
        round: { status: 'closed', endAt: NOW },
        player: { balanceMinor: 10_500, betsAdded: 0, winsAdded: 1 },
        event: 'close-round',
      },
    });
  });

  it('declined or no answer: retried on the schedule (a prize is never rolled back)', () => {
    const at = isoAfter(NOW, 60_000);
    expect(prizeOutcome(declined('NOPE'), prize, retry, at)).toEqual({
      kind: 'retry',
      changes: {
        transactions: [
          { id: 'prize-1', change: { lastError: 'declined: NOPE', nextAttemptAt: isoAfter(at, 5_000) } },
        ],
      },
    });
    expect(prizeOutcome(unknown('http 503'), prize, retry, at)).toEqual({
      kind: 'retry',
      changes: {
        transactions: [
          { id: 'prize-1', change: { lastError: 'http 503', nextAttemptAt: isoAfter(at, 5_000) } },
        ],
      },
    });
  });

  it('still not paid after prizeGiveUpMs: `failed`, and the round closes flagged for reconciliation', () => {
    const at = isoAfter(NOW, DAY);
    expect(prizeOutcome(unknown('timeout'), prize, retry, at)).toEqual({
      kind: 'given-up',
      changes: {
        transactions: [
          { id: 'prize-1', change: { status: 'failed', lastError: 'timeout', nextAttemptAt: null } },
        ],
        round: { status: 'closed', endAt: at, reconciliation: true },
        event: 'close-round',
      },
    });
    expect(prizeOutcome(unknown('timeout'), prize, retry, isoAfter(NOW, DAY - 1)).kind).toBe('retry');
    // A yes is a yes, however late.
    expect(prizeOutcome(ok(1), prize, retry, isoAfter(NOW, 10 * DAY)).kind).toBe('paid');
  });
});

describe('a rollback’s answer', () => {
  const rollback = pendingCall('rollback', { id: 'rb-1' });
  const failedBet: LedgerTransaction = { ...pendingBet, status: 'failed', lastError: 'timeout' };

  it('ok: the rollback and its failed bet both count, together, and net to zero', () => {
    const outcome = rollbackOutcome(ok(10_000), rollback, failedBet, retry, NOW);
    expect(outcome).toEqual({
      kind: 'confirmed',
      balanceMinor: 10_000,
      changes: {
        transactions: [
          {
            id: 'rb-1',
            change: {
              status: 'completed',
              balanceAfterMinor: 10_000,
              balanceBeforeMinor: 9_800,
              completedAt: NOW,
              nextAttemptAt: null,
              lastError: null,
            },
          },
          {
            id: 'bet-1',
            change: {
              status: 'completed',
              completedAt: NOW,
              lastError: 'rolled back by rb-1 after no definite answer: timeout',
            },
          },
        ],
        player: { balanceMinor: 10_000, betsAdded: 0, winsAdded: 0 },
      },
    });
  });

  it('ok: a bet that is not a failed bet of this rollback is left alone', () => {
    for (const bet of [
      undefined,
      { ...failedBet, status: 'completed' as const },
      { ...failedBet, id: 'other-bet' },
      { ...failedBet, type: 'prize' as const },
    ]) {
      const outcome = rollbackOutcome(ok(10_000), rollback, bet, retry, NOW);
      expect(outcome.changes.transactions?.map((t) => t.id)).toEqual(['rb-1']);
    }
  });

  it('declined: nothing more to try; the rollback is declined, the bet stays failed, the round is flagged', () => {
    expect(rollbackOutcome(declined('MALFORMED'), rollback, failedBet, retry, NOW)).toEqual({
      kind: 'declined',
      changes: {
        transactions: [
          {
            id: 'rb-1',
            change: { status: 'declined', lastError: 'declined: MALFORMED', nextAttemptAt: null },
          },
        ],
        round: { reconciliation: true },
      },
    });
  });

  it('no answer: retried on the schedule, and never given up', () => {
    const at = isoAfter(NOW, 365 * DAY);
    expect(rollbackOutcome(unknown('reset'), rollback, failedBet, retry, at)).toEqual({
      kind: 'retry',
      changes: {
        transactions: [{ id: 'rb-1', change: { lastError: 'reset', nextAttemptAt: isoAfter(at, 1_000) } }],
      },
    });
  });
});

describe('the retrier’s claim on a pending call', () => {
  it('a bet left pending is never sent again: its round is voided and its rollback sent instead', () => {
    const claim = claimPending(pendingBet, pendingRound, ids('rb'), retry, NOW);
    const voided = rollBackUnansweredBet(pendingRound, pendingBet, 'no answer from the wallet', 'rb-1', NOW);
    const send = { ...voided.rollback, attempts: 1, nextAttemptAt: isoAfter(NOW, retry.inFlightMs) };
    expect(claim).toEqual({ send, changes: { ...voided.changes, insert: send } });
  });

  it('keeps why a bet had no answer when it is known', () => {
    const claim = claimPending(
      { ...pendingBet, lastError: 'socket hang up' },
      pendingRound,
      ids(),
      retry,
      NOW,
    );
    expect(claim.changes.transactions?.[0]?.change.lastError).toBe('socket hang up');
  });

  it('a prize or rollback is sent again with the same transactionId, one attempt more, held for its sender', () => {
    for (const call of [pendingCall('prize'), pendingCall('rollback')]) {
      const until = isoAfter(NOW, retry.inFlightMs);
      expect(claimPending(call, openRound, noId, retry, NOW)).toEqual({
        send: { ...call, attempts: 2, nextAttemptAt: until },
        changes: { transactions: [{ id: call.id, change: { attempts: 2, nextAttemptAt: until } }] },
      });
    }
  });
});

// ---- whole rounds under every answer sequence ----

/**
 * A wallet that keeps its own books: a call moves money at most once per transactionId, a repeat
 * gets the first definite answer, and "no answer" may or may not have moved the money.
 */
type Fault = 'ok' | 'declined' | 'insufficient' | 'lost-moved' | 'lost-unmoved';

interface World {
  round: RoundRecord;
  calls: Map<string, LedgerTransaction>;
  /** History of each call's status, to check what may follow what. */
  statuses: Map<string, string[]>;
  wallet: { balance: number; seen: Map<string, { moved: true } | { code: string }>; rolledBack: Set<string> };
  nowMs: number;
  newId: () => string;
}

const START_BALANCE = 10_000;
const PRIZE = 300;

function apply(world: World, changes: LedgerChanges): void {
  if (changes.round) world.round = { ...world.round, ...changes.round };
  for (const { id, change } of changes.transactions ?? []) {
    const call = world.calls.get(id);
    if (!call) throw new Error(`change to unknown call ${id}`);
    world.calls.set(id, { ...call, ...change });
  }
  if (changes.insert) {
    if (world.calls.has(changes.insert.id)) throw new Error('inserted twice');
    world.calls.set(changes.insert.id, changes.insert);
  }
  for (const [id, call] of world.calls) {
    const history = world.statuses.get(id) ?? [];
    if (history.at(-1) !== call.status) history.push(call.status);
    world.statuses.set(id, history);
  }
  checkInvariants(world);
}

function send(world: World, call: LedgerTransaction, fault: Fault): WalletAnswer {
  const { wallet } = world;
  if (!wallet.seen.has(call.id)) {
    if (fault === 'declined' || fault === 'insufficient') {
      wallet.seen.set(call.id, { code: fault === 'insufficient' ? 'INSUFFICIENT_FUNDS' : 'REFUSED' });
    } else if (fault === 'ok' || fault === 'lost-moved') {
      wallet.seen.set(call.id, { moved: true });
      if (call.type === 'bet') wallet.balance -= PRICE;
      if (call.type === 'prize') wallet.balance += call.amountMinor;
      const original = call.originalTransactionId ?? '';
      if (call.type === 'rollback' && !wallet.rolledBack.has(original)) {
        wallet.rolledBack.add(original);
        // Rolling back a bet it never saw moves nothing (and is still a yes).
        const bet = wallet.seen.get(original);
        if (bet && 'moved' in bet) wallet.balance += PRICE;
      }
    }
  }
  if (fault === 'lost-moved' || fault === 'lost-unmoved') return unknown('no answer');
  const seen = wallet.seen.get(call.id);
  if (seen && 'code' in seen) return declined(seen.code);
  return ok(wallet.balance);
}

const completedSum = (world: World) =>
  [...world.calls.values()]
    .filter((c) => c.status === 'completed')
    .reduce((sum, c) => sum + c.amountMinor, 0);

const ofType = (world: World, type: LedgerTransaction['type']) =>
  [...world.calls.values()].filter((c) => c.type === type);

/** What holds after every step, whatever the wallet answered. */
function checkInvariants(world: World): void {
  const calls = [...world.calls.values()];
  const [bet, ...otherBets] = ofType(world, 'bet');
  const rollbacks = ofType(world, 'rollback');
  const prizes = ofType(world, 'prize');
  expect(otherBets).toEqual([]);
  expect(rollbacks.length).toBeLessThanOrEqual(1);
  expect(prizes.length).toBeLessThanOrEqual(1);
  // One call at a time waits on the wallet.
  expect(calls.filter((c) => c.status === 'pending').length).toBeLessThanOrEqual(1);
  // Statuses never go back: completed and declined are final, failed only becomes completed for
  // a bet whose rollback was confirmed.
  for (const call of calls) {
    const history = world.statuses.get(call.id) ?? [];
    for (const [i, status] of history.entries()) {
      // A won prize is inserted with its first answer (docs/store.md cut 6): paid, or pending.
      if (i === 0) expect(call.type === 'prize' ? ['pending', 'completed'] : ['pending']).toContain(status);
      else if (status === 'completed')
        expect(['pending', call.type === 'bet' ? 'failed' : 'pending']).toContain(history[i - 1]);
      else expect(history[i - 1]).toBe('pending');
    }
  }
  // The pair rule: a voided round's bet and rollback count together or not at all.
  if (world.round.status === 'voided') {
    const rollback = rollbacks[0];
    expect(rollback).toBeDefined();
    expect(bet?.status === 'completed').toBe(rollback?.status === 'completed');
    expect(completedSum(world)).toBe(0);
    expect(bet?.status).not.toBe('declined');
  } else {
    expect(rollbacks).toEqual([]);
  }
  // A prize is never both paid and given up; the round closes when it is one or the other.
  for (const prize of prizes) {
    const history = world.statuses.get(prize.id) ?? [];
    expect(history.includes('completed') && history.includes('failed')).toBe(false);
    expect(world.round.status).toBe(prize.status === 'pending' ? 'closing' : 'closed');
  }
  // Flagged exactly when a person must settle it: a declined rollback or a prize given up.
  const flaggable =
    rollbacks.some((r) => r.status === 'declined') || prizes.some((p) => p.status === 'failed');
  expect(world.round.reconciliation).toBe(flaggable);
  if (world.round.status === 'declined') {
    expect(bet?.status).toBe('declined');
    expect(completedSum(world)).toBe(0);
  }
}

interface Plan {
  /** Whether the buy gets the bet's answer, or loses it and the retrier claims the bet first. */
  betAnswered: boolean;
  /** After a claim: whether the lost answer still arrives, too late. */
  lateAnswer: boolean;
  wins: boolean;
  /** Whether a second closer sends the won prize at the same time. */
  twoClosers: boolean;
  faults: Fault[];
  /** Time between attempts, cycled. */
  gapsMs: number[];
}

function playRound(plan: Plan): World {
  const round = newRound(game, { roundId: 'round-1', playerId: 'player-1', sessionId: 'session-1' }, NOW);
  const world: World = {
    round,
    calls: new Map(),
    statuses: new Map(),
    wallet: { balance: START_BALANCE, seen: new Map(), rolledBack: new Set() },
    nowMs: Date.parse(NOW),
    newId: ids('call'),
  };
  const now = () => new Date(world.nowMs).toISOString();
  const faults = [...plan.faults];
  let gap = 0;
  const nextFault = (): Fault => faults.shift() ?? 'ok';
  const wait = () => {
    // Past the plan every call gets a yes; a prize refused for good is given up after a day.
    world.nowMs += faults.length > 0 ? (plan.gapsMs[gap++ % plan.gapsMs.length] ?? 1000) : 3_600_000;
  };

  const bet = newBet(round, 'bet-1', now(), isoAfter(now(), retry.inFlightMs));
  apply(world, { insert: bet });
  const answer = send(world, bet, nextFault());
  if (plan.betAnswered) {
    const outcome = betOutcome(answer, world.round, world.calls.get(bet.id), world.newId, now());
    if (outcome.kind === 'taken-over') throw new Error('taken over with no retrier around');
    apply(
      world,
      outcome.kind === 'opened'
        ? outcome.open({ ...ticket, prizeMinor: plan.wins ? PRIZE : 0 })
        : outcome.changes,
    );
  } else {
    wait();
    const claim = claimPending(
      world.calls.get(bet.id) as LedgerTransaction,
      world.round,
      world.newId,
      retry,
      now(),
    );
    apply(world, claim.changes);
    if (plan.lateAnswer) {
      expect(betOutcome(answer, world.round, world.calls.get(bet.id), world.newId, now())).toEqual({
        kind: 'taken-over',
        code: 'WALLET_UNAVAILABLE',
      });
    }
    // The claimed rollback's first attempt.
    retryCall(world, claim.send, nextFault(), now());
  }

  if (world.round.status === 'open') {
    wait();
    const close = closeOutcome(world.round, retry, now());
    if (close.kind === 'not-open') throw new Error('an open round is not open');
    if (close.kind === 'closed') apply(world, close.changes);
    else {
      // Sent before anything is written; with two closers (two tabs, a reveal and the idle close)
      // both send the same transactionId, and only the first unit writes: the round is then no
      // longer open, so the other's changes nothing (its attempt alone is recorded).
      const answer = send(world, close.prize, nextFault());
      if (plan.twoClosers) send(world, close.prize, nextFault());
      apply(world, firstPrizeOutcome(answer, close.prize, retry, now()).changes);
    }
  }

  // The retrier: claim whatever is pending, send it, write the answer; until nothing is pending.
  for (let pass = 0; pass < 500; pass++) {
    const pending = [...world.calls.values()].find((c) => c.status === 'pending');
    if (!pending) return world;
    wait();
    const claim = claimPending(pending, world.round, world.newId, retry, now());
    apply(world, claim.changes);
    retryCall(world, claim.send, nextFault(), now());
  }
  throw new Error('calls still pending after 500 passes');
}

function retryCall(world: World, call: LedgerTransaction, fault: Fault, now: string): void {
  const answer = send(world, call, fault);
  if (call.type === 'prize') apply(world, prizeOutcome(answer, call, retry, now).changes);
  else if (call.type === 'rollback') {
    const bet = world.calls.get(call.originalTransactionId ?? '');
    apply(world, rollbackOutcome(answer, call, bet, retry, now).changes);
  } else throw new Error('a bet is never sent again');
}

const plans = fc.record({
  betAnswered: fc.boolean(),
  lateAnswer: fc.boolean(),
  wins: fc.boolean(),
  twoClosers: fc.boolean(),
  faults: fc.array(fc.constantFrom<Fault>('ok', 'declined', 'insufficient', 'lost-moved', 'lost-unmoved'), {
    maxLength: 40,
  }),
  gapsMs: fc.array(fc.integer({ min: 0, max: 12 * 3_600_000 }), { minLength: 1, maxLength: 5 }),
});

describe('whole rounds, for every sequence of wallet answers', () => {
  it('keep the invariants at every step and end settled: the completed transactions equal what the wallet moved', () => {
    fc.assert(
      fc.property(plans, (plan) => {
        const world = playRound(plan);
        const moved = world.wallet.balance - START_BALANCE;
        expect(['closed', 'declined', 'voided']).toContain(world.round.status);
        if (!world.round.reconciliation) {
          expect(completedSum(world)).toBe(moved);
          return;
        }
        // Flagged: the ledger shows what it knows; a person settles the difference.
        const [rollback] = ofType(world, 'rollback');
        const [prize] = ofType(world, 'prize');
        if (rollback?.status === 'declined') {
          expect(ofType(world, 'bet')[0]?.status).toBe('failed');
          expect(completedSum(world)).toBe(0);
          expect([0, -PRICE]).toContain(moved);
        } else {
          expect(prize?.status).toBe('failed');
          expect(completedSum(world)).toBe(-PRICE);
          expect([-PRICE, PRIZE - PRICE]).toContain(moved);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('a bet without a definite answer is rolled back and the pair nets to zero once confirmed', () => {
    fc.assert(
      fc.property(
        plans.filter((p) => !p.betAnswered || p.faults[0] === 'lost-moved' || p.faults[0] === 'lost-unmoved'),
        (plan) => {
          const world = playRound(plan);
          expect(world.round.status).toBe('voided');
          const [bet] = ofType(world, 'bet');
          const [rollback] = ofType(world, 'rollback');
          expect(rollback?.originalTransactionId).toBe(bet?.id);
          expect(rollback?.amountMinor).toBe(-(bet?.amountMinor ?? 0));
          if (rollback?.status === 'completed') expect(bet?.status).toBe('completed');
          else
            expect([bet?.status, rollback?.status, world.round.reconciliation]).toEqual([
              'failed',
              'declined',
              true,
            ]);
        },
      ),
    );
  });
});
