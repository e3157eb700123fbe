import { HISTORY_ROUNDS, type HistoryAnswer, type PlayRound, type PlayState } from '@raspa/core';
import { isoNow } from '../clock.ts';
import { SETTING_DEFAULTS } from '../config.ts';
import type { Deps } from '../deps.ts';
import type { GameRecord, GameSessionRecord, PlayerRecord, ProfileRecord } from '../store/records.ts';
import type { Wallet, WalletDirectory } from '../wallet/wallet.ts';
import { createBetFlow } from './bet-flow.ts';
import { createCallsInFlight } from './calls-in-flight.ts';
import { freeCardGrantOf, freeCardsState } from './free-card-grants.ts';
import { historyRoundOf, playStateRulesOf, sessionFiguresOf, showsSessionFigures } from './play-history.ts';
import { createPlayRecords, type PlayRecords } from './play-records.ts';
import {
  type BuyResult,
  fail,
  type PlayNotifier,
  type PlayResult,
  type PlayRuntime,
  type RoundEventQueue,
} from './play-runtime.ts';
import { createPrizeFlow } from './prize-flow.ts';
import { DEFAULT_WALLET_RETRY, isoAfter, type WalletRetryPolicy } from './retry-schedule.ts';
import { playRoundOf } from './round-records.ts';
import { createWalletRetrier } from './wallet-retrier.ts';

export type { PlayFailure, PlayNotifier, PlayResult, RoundEventQueue } from './play-runtime.ts';

/*
 * The play loop, by file:
 *   play-service.ts     this: the service's API, composing the flows below
 *   bet-flow.ts         a buy: commit the round and its bet, send the bet, write what the answer means
 *   buy-protection.ts   the buy's player-protection checks (limits, exclusion, reality check, gap)
 *   prize-flow.ts       a reveal or idle time-out: close the round, commit its prize and send it
 *   wallet-retrier.ts   pending calls: claim, send (prizes, rollbacks), write the answer; settleDue
 *   wallet-outcomes.ts  the rules, pure: what each wallet answer means for the round and its ledger;
 *                       an unanswered bet is voided and rolled back there (`rollBackUnansweredBet`)
 *   round-records.ts    pure builders of rounds, bets, prizes, rollbacks and what the page sees
 *   retry-schedule.ts   when a call is tried again, and when a prize is given up
 *   calls-in-flight.ts  which calls this process is sending now (in memory)
 *   play-runtime.ts     shared types and the one place rule changes are written to the store
 */

const silentNotifier: PlayNotifier = { balance: () => {}, round: () => {} };

export interface PlayOptions {
  wallets: WalletDirectory;
  events: RoundEventQueue;
  notifier?: PlayNotifier;
  retry?: WalletRetryPolicy;
  /** A round with no action for this long closes by itself (docs/contract.md §8); default 5 minutes. */
  roundIdleMs?: number;
  /** Where requests read their session, player, game and profile; default: a cache of the store. */
  records?: PlayRecords;
}

interface PlayContext {
  session: GameSessionRecord;
  player: PlayerRecord;
  game: GameRecord;
  profile: ProfileRecord;
  wallet: Wallet;
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
  const roundIdleMs = options.roundIdleMs ?? SETTING_DEFAULTS.ROUND_IDLE_TIMEOUT * 1000;
  const inFlight = new Set<Promise<unknown>>();
  let stopping = false;

  const nowIso = () => isoNow(deps);

  /** Tracks work that must finish before a clean stop. */
  function track<T>(work: Promise<T>): Promise<T> {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work)).catch(() => {});
    return work;
  }

  const runtime: PlayRuntime = {
    deps,
    wallets: options.wallets,
    events: options.events,
    notifier: options.notifier ?? silentNotifier,
    retry: options.retry ?? DEFAULT_WALLET_RETRY,
    records: options.records ?? createPlayRecords(deps.store, deps.clock),
    calls: createCallsInFlight(),
    leaseOwner: deps.newId(),
    track,
  };
  const retrier = createWalletRetrier(runtime);
  const bets = createBetFlow(runtime, retrier.settleDue);
  const prizes = createPrizeFlow(runtime, retrier);

  async function context(sessionId: string): Promise<PlayResult<PlayContext>> {
    const { records } = runtime;
    const session = await records.session(sessionId);
    // Ended by its operator or an exclusion: every process forgets it then and reads it again here.
    if (session?.endCode) return fail(session.endCode);
    if (!session || session.expireAt <= nowIso()) return fail('SESSION_EXPIRED');
    const [player, game, profile] = await Promise.all([
      records.player(session.playerId),
      records.game(session.gameId),
      records.profile(session.profileId),
    ]);
    if (!player || !game || !profile) return fail('SESSION_EXPIRED');
    return {
      ok: true,
      data: { session, player, game, profile, wallet: options.wallets.forProfile(profile) },
    };
  }

  /**
   * An instance that may not write (its code generation is older than the database's, or it waits
   * for older instances to stop: store/write-generation.ts) starts no round and ends none: the
   * page is told to try again, and the load balancer sends it to another instance. In memory: no
   * statement on the round's path.
   */
  const mayNotWrite = () => store.writer.blocked() !== undefined;

  /** Tracked from its first read, not from its wallet call: a stop waits for its answer too (issue 36). */
  function buy(sessionId: string): Promise<BuyResult> {
    if (stopping || mayNotWrite()) return Promise.resolve(fail('SERVICE_STOPPING'));
    return track(
      (async () => {
        const found = await context(sessionId);
        if (!found.ok) return found;
        return bets.buy(found.data);
      })(),
    );
  }

  /** `reality-check-ack`, the player's "Keep playing" (buy-protection.ts). */
  async function acknowledgeRealityCheck(
    sessionId: string,
  ): Promise<PlayResult<{ realityCheckDueAt: string | null }>> {
    const found = await context(sessionId);
    if (!found.ok) return found;
    return bets.protection.acknowledge(found.data, deps.clock().getTime());
  }

  /** Served while the process stops (it ends a round), and tracked whole, as a buy. */
  function reveal(
    sessionId: string,
    roundId: string,
  ): Promise<PlayResult<{ round: PlayRound; balance: number | null }>> {
    if (mayNotWrite()) return Promise.resolve(fail('SERVICE_STOPPING'));
    return track(
      (async (): Promise<PlayResult<{ round: PlayRound; balance: number | null }>> => {
        const found = await context(sessionId);
        if (!found.ok) return found;
        const closed = await prizes.closeRound(roundId, found.data.player.id);
        const view = closed && playRoundOf(closed.round);
        if (!closed || !view) return fail('ROUND_NOT_FOUND');
        return { ok: true, data: { round: view, balance: closed.balance } };
      })(),
    );
  }

  /** Closes rounds left open with no action for `roundIdleMs` (the prize is paid either way). */
  async function closeIdleRounds(): Promise<number> {
    const idle = await store.rounds.idleOpenRounds(isoAfter(nowIso(), -roundIdleMs), 100);
    for (const round of idle) await track(prizes.closeRound(round.id));
    return idle.length;
  }

  /** The player's last rounds of this session's game, newest first (the `history` request). */
  async function history(sessionId: string): Promise<PlayResult<HistoryAnswer>> {
    const found = await context(sessionId);
    if (!found.ok) return found;
    const { player, game } = found.data;
    const rows = await store.history.recentRounds(player.id, game.id, HISTORY_ROUNDS);
    return { ok: true, data: { rounds: rows.map(historyRoundOf) } };
  }

  return {
    buy,
    reveal,
    acknowledgeRealityCheck,
    history,
    /** Forgets a session this process keeps, so its next request reads it (an ended one) again. */
    forgetSession: (sessionId: string) => runtime.records.forgetSession(sessionId),
    settleDue: retrier.settleDue,
    closeIdleRounds,

    /**
     * At start: calls left pending by the previous process are not in flight any more, so they are
     * settled at once (bets rolled back, prizes and rollbacks sent again with the same transactionId).
     */
    async recover({ releasePending = true }: { releasePending?: boolean } = {}): Promise<number> {
      // Only a process that is the whole installation may: another may be sending one of them.
      const released = releasePending ? await store.rounds.releasePending(nowIso()) : 0;
      if (released > 0)
        deps.logger.warn('settling wallet calls left pending by the last run', { count: released });
      return retrier.settleDue();
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
      const rules = playStateRulesOf(game, profile);
      // Only where the page shows them (GB): the read's rows grow with the session's rounds, and
      // `state` runs at every page load and reconnect. Never on the round's path.
      const [live, grants, sessionRounds] = await Promise.all([
        store.rounds.findLiveRound(player.id),
        store.freeCards.grantsOfGame(player.id, game.id),
        showsSessionFigures(rules)
          ? store.protection.sessionRounds(player.id, session.id, session.createdAt)
          : undefined,
      ]);
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
          openRound: live ? playRoundOf(live) : null,
          freeCards: freeCardsState(grants.map(freeCardGrantOf), deps.clock().getTime()),
          rules,
          session: sessionRounds ? sessionFiguresOf(sessionRounds, session.createdAt, nowIso()) : null,
        },
      };
    },

    /** Gives back the blocks of a pool's end this process stopped drawing from (pool-drawer.ts). */
    giveBackIdleBlocks: () => bets.giveBackBlocks(),

    /**
     * Stops taking new rounds, waits for the buys, reveals and calls in flight, then gives back every block of draw
     * indexes it holds: another instance draws them at once, not after their lease.
     */
    async stop(): Promise<void> {
      stopping = true;
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
      // Refused meanwhile (a newer build raised the database's generation): its blocks' leases expire.
      if (store.writer.refused() === undefined) await bets.giveBackBlocks(true);
    },
  };
}

export type PlayService = ReturnType<typeof createPlayService>;
