import { layoutCard, type PlayErrorCode, type PlayRound, type PlayState, type Rng } from '@raspa/core';
import { type Deps, isoNow } from '../deps.ts';
import { roundView } from '../http/schemas/round.ts';
import type {
  GameRecord,
  GameSessionRecord,
  LedgerTransaction,
  PlayerRecord,
  ProfileRecord,
  RoundRecord,
} from '../store/records.ts';
import type { Repositories, Transaction } from '../store/store.ts';
import type { Wallet, WalletAnswer, WalletDirectory, WalletMovement } from '../wallet/wallet.ts';
import { createPoolDrawer } from './pool-drawer.ts';
import { DEFAULT_WALLET_RETRY, retryDelay, type WalletRetryPolicy } from './retry-schedule.ts';

export type PlayResult<T> = { ok: true; data: T } | { ok: false; code: PlayErrorCode };

/** How the service tells connected pages what changed (the realtime layer implements it). */
export interface PlayNotifier {
  balance(playerId: string, balanceMinor: number): void;
  round(playerId: string, round: PlayRound): void;
}

/** Queues a webhook event on the round's own transaction (the outbox). */
export interface RoundEventQueue {
  enqueue(
    tx: Transaction,
    event: {
      clientId: string;
      roundId: string;
      eventType: 'open-round' | 'close-round';
      payload: () => Promise<unknown>;
    },
  ): Promise<unknown>;
}

export interface PlayOptions {
  wallets: WalletDirectory;
  events: RoundEventQueue;
  notifier?: PlayNotifier;
  retry?: WalletRetryPolicy;
  /** A round with no action for this long closes by itself (docs/contract.md §8); default 5 minutes. */
  roundIdleMs?: number;
}

interface PlayContext {
  session: GameSessionRecord;
  player: PlayerRecord;
  game: GameRecord;
  profile: ProfileRecord;
  wallet: Wallet;
}

const silentNotifier: PlayNotifier = { balance: () => {}, round: () => {} };
const fail = <T>(code: PlayErrorCode): PlayResult<T> => ({ ok: false, code });

/**
 * Layout randomness (cosmetic: the outcome comes from the pool) from the injected random source,
 * read 4 KiB at a time.
 */
function rngFrom(random: Deps['random']): Rng {
  let buffer: Buffer = Buffer.alloc(0);
  let offset = 0;
  return () => {
    if (offset + 4 > buffer.length) {
      buffer = random(4096);
      offset = 0;
    }
    const value = buffer.readUInt32BE(offset) / 4_294_967_296;
    offset += 4;
    return value;
  };
}

/**
 * The play loop (docs/contract.md §5–§7): a buy debits the ticket price through the operator's wallet, then
 * draws the next ticket and opens the round; the reveal (or an idle time-out) closes it and credits
 * the prize. Every wallet call is committed as a pending transaction before it is sent, so a crash
 * at any point is settled by `settleDue`: a bet without an answer is rolled back, a prize is retried
 * until paid. The round, its transactions and its webhook events change together in one transaction.
 */
export function createPlayService(deps: Deps, options: PlayOptions) {
  const { store } = deps;
  const retry = options.retry ?? DEFAULT_WALLET_RETRY;
  const roundIdleMs = options.roundIdleMs ?? 5 * 60_000;
  const notifier = options.notifier ?? silentNotifier;
  const drawer = createPoolDrawer(deps);
  const rng = rngFrom(deps.random);
  const inFlight = new Set<Promise<unknown>>();
  const busyTransactions = new Set<string>();
  let stopping = false;

  const nowIso = () => isoNow(deps);
  const later = (ms: number) => new Date(deps.clock().getTime() + ms).toISOString();

  /** Tracks work that must finish before a clean stop. */
  function track<T>(work: Promise<T>): Promise<T> {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work)).catch(() => {});
    return work;
  }

  async function context(sessionId: string): Promise<PlayResult<PlayContext>> {
    const session = await store.sessions.findById(sessionId);
    if (!session || session.expireAt <= nowIso()) return fail('SESSION_EXPIRED');
    const [player, game, profile] = await Promise.all([
      store.players.findById(session.playerId),
      store.games.findById(session.gameId),
      store.profiles.findById(session.profileId),
    ]);
    if (!player || !game || !profile) return fail('SESSION_EXPIRED');
    return {
      ok: true,
      data: { session, player, game, profile, wallet: options.wallets.forProfile(profile) },
    };
  }

  function movement(
    transaction: LedgerTransaction,
    round: RoundRecord,
    player: PlayerRecord,
    game: GameRecord,
  ): WalletMovement {
    return {
      transactionId: transaction.id,
      roundId: round.id,
      sessionId: round.sessionId,
      userId: player.id,
      credential: player.credential,
      currency: round.currency,
      amountMinor: Math.abs(transaction.amountMinor),
      gameId: game.id,
      gameModel: game.gameModel,
    };
  }

  /** What a wallet call of a round needs, read again (a retry may come long after the round). */
  async function callContext(
    round: RoundRecord,
  ): Promise<{ wallet: Wallet; player: PlayerRecord; game: GameRecord }> {
    const [profile, player, game] = await Promise.all([
      store.profiles.findById(round.profileId),
      store.players.findById(round.playerId),
      store.games.findById(round.gameId),
    ]);
    if (!profile || !player || !game) throw new Error(`round ${round.id} refers to missing records`);
    return { wallet: options.wallets.forProfile(profile), player, game };
  }

  function playRound(round: RoundRecord): PlayRound | null {
    if (!round.cardJson || round.level === null) return null;
    return {
      roundId: round.id,
      status: round.status,
      card: JSON.parse(round.cardJson),
      level: round.level,
      prize: round.prizeMinor,
      price: round.paidMinor,
      createdAt: round.createdAt,
      endAt: round.endAt,
      prizePending: round.status === 'closing',
    };
  }

  /** Queues the round's event; its payload (the spec's Round) is built only if a webhook wants it. */
  async function queueEvent(
    tx: Transaction,
    round: RoundRecord,
    eventType: 'open-round' | 'close-round',
  ): Promise<void> {
    const payload = async () => {
      const detail = await tx.ledger.findRoundDetail(round.id);
      if (!detail) throw new Error(`round ${round.id} vanished inside its transaction`);
      return roundView(detail);
    };
    await options.events.enqueue(tx, { clientId: round.clientId, roundId: round.id, eventType, payload });
  }

  async function mustRound(repos: Repositories, id: string): Promise<RoundRecord> {
    const round = await repos.rounds.findRound(id);
    if (!round) throw new Error(`round ${id} not found`);
    return round;
  }

  // ---- bets ----

  async function openRound(
    tx: Transaction,
    round: RoundRecord,
    bet: LedgerTransaction,
    game: GameRecord,
    balanceMinor: number,
  ): Promise<RoundRecord> {
    const draw = await drawer.draw(tx, game);
    const card = layoutCard(game.gameModel, game.ladder, draw.level, rng);
    const prize = draw.level > 0 ? (game.ladder.levels[draw.level - 1]?.prize ?? 0) : 0;
    const now = nowIso();
    const change = {
      status: 'open',
      poolId: draw.poolId,
      drawIndex: draw.drawIndex,
      level: draw.level,
      cardJson: JSON.stringify(card),
      prizeMinor: prize,
      lastActionAt: now,
    } as const;
    await tx.rounds.updateRound(round.id, change);
    await tx.rounds.updateTransaction(bet.id, {
      status: 'completed',
      balanceAfterMinor: balanceMinor,
      balanceBeforeMinor: balanceMinor + round.paidMinor,
      completedAt: now,
      nextAttemptAt: null,
    });
    await tx.rounds.updatePlayer(round.playerId, round.currency, balanceMinor, 1, 0);
    const opened: RoundRecord = { ...round, ...change };
    await queueEvent(tx, opened, 'open-round');
    return opened;
  }

  /**
   * A bet without a definite answer: void the round and roll the bet back (retried until definite).
   * The bet stays `failed` (not counted) until the wallet confirms the rollback; then both become
   * `completed` together and net to zero (docs/contract.md §6, docs/reconciliation.md).
   */
  async function voidBet(
    tx: Transaction,
    round: RoundRecord,
    bet: LedgerTransaction,
    reason: string,
  ): Promise<LedgerTransaction> {
    const now = nowIso();
    await tx.rounds.updateRound(round.id, { status: 'voided', endAt: now, lastActionAt: now });
    await tx.rounds.updateTransaction(bet.id, { status: 'failed', lastError: reason, nextAttemptAt: null });
    const rollback: LedgerTransaction = {
      id: deps.newId(),
      roundId: round.id,
      clientId: round.clientId,
      profileId: round.profileId,
      playerId: round.playerId,
      type: 'rollback',
      amountMinor: round.paidMinor,
      currency: round.currency,
      balanceBeforeMinor: null,
      balanceAfterMinor: null,
      status: 'pending',
      createdAt: now,
      originalTransactionId: bet.id,
      attempts: 0,
      nextAttemptAt: now,
      lastError: null,
      completedAt: null,
    };
    await tx.rounds.insertTransaction(rollback);
    return rollback;
  }

  async function buy(sessionId: string): Promise<PlayResult<{ round: PlayRound; balance: number }>> {
    if (stopping) return fail('SERVICE_STOPPING');
    const found = await context(sessionId);
    if (!found.ok) return found;
    const { player, game, session, wallet } = found.data;
    const now = nowIso();
    const roundId = deps.newId();
    const betId = deps.newId();
    const started = await store.transaction(
      async (tx): Promise<PlayResult<{ round: RoundRecord; bet: LedgerTransaction }>> => {
        const current = await tx.games.findById(game.id);
        if (!current?.active) return fail('GAME_INACTIVE');
        if (await tx.rounds.findLiveRound(player.id)) return fail('ROUND_IN_PROGRESS');
        const round: RoundRecord = {
          id: roundId,
          clientId: game.clientId,
          profileId: game.profileId,
          gameId: game.id,
          playerId: player.id,
          sessionId: session.id,
          status: 'pending',
          currency: game.currency,
          paidMinor: game.betMinor,
          prizeMinor: 0,
          createdAt: now,
          endAt: null,
          poolId: null,
          drawIndex: null,
          level: null,
          cardJson: null,
          lastActionAt: now,
          reconciliation: false,
        };
        const bet: LedgerTransaction = {
          id: betId,
          roundId,
          clientId: game.clientId,
          profileId: game.profileId,
          playerId: player.id,
          type: 'bet',
          amountMinor: -game.betMinor,
          currency: game.currency,
          balanceBeforeMinor: null,
          balanceAfterMinor: null,
          status: 'pending',
          createdAt: now,
          originalTransactionId: null,
          attempts: 1,
          nextAttemptAt: later(retry.inFlightMs),
          lastError: null,
          completedAt: null,
        };
        await tx.rounds.insertRound(round);
        await tx.rounds.insertTransaction(bet);
        return { ok: true, data: { round, bet } };
      },
    );
    if (!started.ok) return started;
    const { round, bet } = started.data;
    busyTransactions.add(bet.id);
    try {
      const answer = await track(wallet.bet(movement(bet, round, player, game)));
      return await settleBet(round, bet.id, game, answer);
    } finally {
      busyTransactions.delete(bet.id);
    }
  }

  async function settleBet(
    { id: roundId, playerId }: RoundRecord,
    betId: string,
    game: GameRecord,
    answer: WalletAnswer,
  ): Promise<PlayResult<{ round: PlayRound; balance: number }>> {
    let rollbackQueued = false;
    const result = await store.transaction(
      async (tx): Promise<PlayResult<{ round: PlayRound; balance: number }>> => {
        const round = await mustRound(tx, roundId);
        const bet = await tx.rounds.findTransaction(betId);
        // The retrier already gave up on this bet and is rolling it back.
        if (round.status !== 'pending' || bet?.status !== 'pending') return fail('WALLET_UNAVAILABLE');
        if (answer.kind === 'ok') {
          const opened = await openRound(tx, round, bet, game, answer.balanceMinor);
          const view = playRound(opened);
          if (!view) throw new Error(`round ${roundId} opened without a card`);
          return { ok: true, data: { round: view, balance: answer.balanceMinor } };
        }
        if (answer.kind === 'declined') {
          const now = nowIso();
          await tx.rounds.updateRound(round.id, { status: 'declined', endAt: now, lastActionAt: now });
          await tx.rounds.updateTransaction(bet.id, {
            status: 'declined',
            lastError: answer.code,
            nextAttemptAt: null,
          });
          return fail(answer.code === 'INSUFFICIENT_FUNDS' ? 'INSUFFICIENT_FUNDS' : 'WALLET_DECLINED');
        }
        await voidBet(tx, round, bet, answer.reason);
        rollbackQueued = true;
        return fail('WALLET_UNAVAILABLE');
      },
    );
    if (result.ok) {
      // No level or prize here: the player has not seen the card yet.
      deps.logger.info('round opened', { roundId });
      notifier.balance(playerId, result.data.balance);
    } else {
      deps.logger.info('bet refused', {
        roundId,
        code: result.code,
        ...(answer.kind !== 'ok' && { wallet: answer.kind }),
      });
    }
    if (rollbackQueued) void settleDue();
    return result;
  }

  // ---- reveals and prizes ----

  async function closeRound(roundId: string): Promise<RoundRecord> {
    const step = await store.transaction(async (tx) => {
      const round = await mustRound(tx, roundId);
      if (round.status !== 'open') return { round, prize: undefined };
      const now = nowIso();
      if (round.prizeMinor === 0) {
        const change = { status: 'closed', endAt: now, lastActionAt: now } as const;
        await tx.rounds.updateRound(round.id, change);
        const closed: RoundRecord = { ...round, ...change };
        await queueEvent(tx, closed, 'close-round');
        return { round: closed, prize: undefined };
      }
      const prize: LedgerTransaction = {
        id: deps.newId(),
        roundId: round.id,
        clientId: round.clientId,
        profileId: round.profileId,
        playerId: round.playerId,
        type: 'prize',
        amountMinor: round.prizeMinor,
        currency: round.currency,
        balanceBeforeMinor: null,
        balanceAfterMinor: null,
        status: 'pending',
        createdAt: now,
        originalTransactionId: null,
        attempts: 0,
        // Its first attempt is this reveal's own: the retrier leaves it alone meanwhile.
        nextAttemptAt: later(retry.inFlightMs),
        lastError: null,
        completedAt: null,
      };
      await tx.rounds.insertTransaction(prize);
      await tx.rounds.updateRound(round.id, { status: 'closing', lastActionAt: now });
      return { round, prize };
    });
    if (!step.prize) {
      const view = playRound(step.round);
      if (view) notifier.round(step.round.playerId, view);
      return step.round;
    }
    await attempt(step.prize.id);
    const round = await mustRound(store, roundId);
    const view = playRound(round);
    if (view) notifier.round(round.playerId, view);
    return round;
  }

  async function reveal(
    sessionId: string,
    roundId: string,
  ): Promise<PlayResult<{ round: PlayRound; balance: number | null }>> {
    const found = await context(sessionId);
    if (!found.ok) return found;
    const round = await store.rounds.findRound(roundId);
    if (!round || round.playerId !== found.data.player.id || !round.cardJson) return fail('ROUND_NOT_FOUND');
    const closed = await track(closeRound(roundId));
    const view = playRound(closed);
    if (!view) return fail('ROUND_NOT_FOUND');
    const balance = await store.players.balanceIn(closed.playerId, closed.currency);
    return { ok: true, data: { round: view, balance: balance ?? null } };
  }

  // ---- wallet calls without a definite answer yet ----

  /** Claims a pending call (so no one else sends it meanwhile), sends it and records the answer. */
  async function attempt(transactionId: string): Promise<void> {
    if (busyTransactions.has(transactionId)) return;
    busyTransactions.add(transactionId);
    try {
      const claimed = await store.transaction(async (tx) => {
        let transaction = await tx.rounds.findTransaction(transactionId);
        if (transaction?.status !== 'pending') return undefined;
        const round = await mustRound(tx, transaction.roundId);
        // A bet still pending here lost its answer (time-out or crash): it is rolled back instead.
        if (transaction.type === 'bet') {
          transaction = await voidBet(
            tx,
            round,
            transaction,
            transaction.lastError ?? 'no answer from the wallet',
          );
        }
        const attempts = transaction.attempts + 1;
        await tx.rounds.updateTransaction(transaction.id, {
          attempts,
          nextAttemptAt: later(retry.inFlightMs),
        });
        return { transaction: { ...transaction, attempts }, round };
      });
      if (!claimed) return;
      const { transaction, round } = claimed;
      const { wallet, player, game } = await callContext(round);
      const call = movement(transaction, round, player, game);
      const answer =
        transaction.type === 'prize'
          ? await wallet.prize(call)
          : await wallet.rollback({
              ...call,
              originalTransactionId: transaction.originalTransactionId ?? '',
            });
      await record(transaction, answer);
    } finally {
      busyTransactions.delete(transactionId);
    }
  }

  /**
   * The wallet confirmed a rollback: whether or not it ever took the bet, the pair now nets to
   * zero in what it moved, so the bet is counted with its rollback (both `completed`, in the same
   * database transaction). Its lastError keeps that it had no definite answer.
   */
  async function completeRolledBackBet(
    tx: Transaction,
    rollback: LedgerTransaction,
    now: string,
  ): Promise<void> {
    const bet = rollback.originalTransactionId
      ? await tx.rounds.findTransaction(rollback.originalTransactionId)
      : undefined;
    if (bet?.type !== 'bet' || bet.status !== 'failed') return;
    await tx.rounds.updateTransaction(bet.id, {
      status: 'completed',
      completedAt: now,
      lastError: `rolled back by ${rollback.id} after no definite answer: ${bet.lastError ?? 'unknown'}`,
    });
  }

  async function record(transaction: LedgerTransaction, answer: WalletAnswer): Promise<void> {
    const now = nowIso();
    let balance: number | undefined;
    const round = await store.transaction(async (tx) => {
      const round = await mustRound(tx, transaction.roundId);
      if (answer.kind === 'ok') {
        balance = answer.balanceMinor;
        await tx.rounds.updateTransaction(transaction.id, {
          status: 'completed',
          balanceAfterMinor: answer.balanceMinor,
          balanceBeforeMinor: answer.balanceMinor - transaction.amountMinor,
          completedAt: now,
          nextAttemptAt: null,
          lastError: null,
        });
        if (transaction.type === 'prize') {
          const change = { status: 'closed', endAt: now } as const;
          await tx.rounds.updateRound(round.id, change);
          await tx.rounds.updatePlayer(round.playerId, round.currency, answer.balanceMinor, 0, 1);
          const closed: RoundRecord = { ...round, ...change };
          await queueEvent(tx, closed, 'close-round');
          return closed;
        }
        await completeRolledBackBet(tx, transaction, now);
        await tx.rounds.updatePlayer(round.playerId, round.currency, answer.balanceMinor, 0, 0);
        return round;
      }
      const reason = answer.kind === 'declined' ? `declined: ${answer.code}` : answer.reason;
      if (transaction.type === 'rollback' && answer.kind === 'declined') {
        // A definite no to a rollback: nothing more to try; a person must look at it.
        await tx.rounds.updateTransaction(transaction.id, {
          status: 'declined',
          lastError: reason,
          nextAttemptAt: null,
        });
        await tx.rounds.updateRound(round.id, { reconciliation: true });
        return round;
      }
      const givingUp =
        transaction.type === 'prize' &&
        deps.clock().getTime() - Date.parse(transaction.createdAt) >= retry.prizeGiveUpMs;
      if (givingUp) {
        await tx.rounds.updateTransaction(transaction.id, {
          status: 'failed',
          lastError: reason,
          nextAttemptAt: null,
        });
        const change = { status: 'closed', endAt: now, reconciliation: true } as const;
        await tx.rounds.updateRound(round.id, change);
        const closed: RoundRecord = { ...round, ...change };
        await queueEvent(tx, closed, 'close-round');
        return closed;
      }
      await tx.rounds.updateTransaction(transaction.id, {
        lastError: reason,
        nextAttemptAt: later(retryDelay(retry, transaction.attempts)),
      });
      return round;
    });
    deps.logger[answer.kind === 'ok' ? 'info' : 'warn'](`wallet ${transaction.type}`, {
      transactionId: transaction.id,
      roundId: transaction.roundId,
      answer: answer.kind,
      attempt: transaction.attempts,
    });
    if (balance !== undefined) {
      notifier.balance(transaction.playerId, balance);
      const view = playRound(round);
      if (view) notifier.round(transaction.playerId, view);
    }
  }

  let settling: Promise<number> | undefined;

  async function settleAllDue(): Promise<number> {
    let count = 0;
    for (;;) {
      const due = (await store.rounds.dueTransactions(nowIso(), 50)).filter(
        (t) => !busyTransactions.has(t.id),
      );
      if (due.length === 0) return count;
      await Promise.all(due.map((transaction) => attempt(transaction.id)));
      count += due.length;
    }
  }

  /** Sends every pending wallet call whose time has come (after a restart too). Returns how many. */
  function settleDue(): Promise<number> {
    // Cleared from a callback, never from inside the run, which may finish synchronously.
    settling ??= track(settleAllDue()).finally(() => {
      settling = undefined;
    });
    return settling;
  }

  /** Closes rounds left open with no action for `roundIdleMs` (the prize is paid either way). */
  async function closeIdleRounds(): Promise<number> {
    const idle = await store.rounds.idleOpenRounds(later(-roundIdleMs), 100);
    for (const round of idle) await track(closeRound(round.id));
    return idle.length;
  }

  return {
    buy,
    reveal,
    settleDue,
    closeIdleRounds,

    /**
     * At start: calls left pending by the previous process are not in flight any more, so they are
     * settled at once (bets rolled back, prizes and rollbacks sent again with the same transactionId).
     */
    async recover(): Promise<number> {
      const released = await store.rounds.releasePending(nowIso());
      if (released > 0)
        deps.logger.warn('settling wallet calls left pending by the last run', { count: released });
      return settleDue();
    },

    async state(sessionId: string): Promise<PlayResult<PlayState>> {
      const found = await context(sessionId);
      if (!found.ok) return found;
      const { session, player, game, profile, wallet } = found.data;
      // The last balance reported in this game's currency: a player may play several of a profile.
      const known = await store.players.balanceIn(player.id, game.currency);
      let balance: number | null = known ?? null;
      const answer = await wallet.balance({
        sessionId: session.id,
        userId: player.id,
        credential: player.credential,
        currency: game.currency,
      });
      if (answer.kind === 'ok') {
        const reported = answer.balanceMinor;
        balance = reported;
        // Through the group commit, and only on a change: a restart with thousands of pages open
        // must not cost a durable commit each.
        if (reported !== known)
          await store.transaction((tx) => tx.rounds.updatePlayer(player.id, game.currency, reported, 0, 0));
      }
      const live = await store.rounds.findLiveRound(player.id);
      return {
        ok: true,
        data: {
          sessionId: session.id,
          lang: session.lang as PlayState['lang'],
          returnUrl: session.returnUrl,
          expireAt: session.expireAt,
          allowedOrigins: profile.allowedOrigins,
          player: { id: player.id, balance },
          game: {
            id: game.id,
            gameModel: game.gameModel,
            currency: game.currency,
            price: game.betMinor,
            sampling: game.sampling,
            levels: game.ladder.levels.map(({ level, winners, prize }) => ({ level, winners, prize })),
          },
          openRound: live ? playRound(live) : null,
        },
      };
    },

    /** Stops taking new rounds and waits for the calls in flight. */
    async stop(): Promise<void> {
      stopping = true;
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}

export type PlayService = ReturnType<typeof createPlayService>;
