import type { FreeCardsState, PlayErrorCode, PlayRound, RealityCheck } from '@raspa/core';
import type { Deps } from '../deps.ts';
import type {
  GameRecord,
  GameSessionRecord,
  HeldRound,
  PlayerRecord,
  ProfileRecord,
  RoundPlayer,
  RoundRecord,
} from '../store/records.ts';
import type { Repositories, Transaction } from '../store/store.ts';
import type { Wallet, WalletDirectory } from '../wallet/wallet.ts';
import type { CallsInFlight } from './calls-in-flight.ts';
import type { PlayRecords } from './play-records.ts';
import type { WalletRetryPolicy } from './retry-schedule.ts';
import { callsAfter, roundEventPayload } from './round-event.ts';
import type { LedgerChanges } from './wallet-outcomes.ts';

/** What the flows share: the types others import (through play-service.ts) and the store writes. */

/**
 * A refused request: its code, and for player protection's refusals (buy-protection.ts) the
 * sentence to show instead of the code's own (LIMIT_REACHED names the limit and its reset) and
 * what the page needs (REALITY_CHECK's figures, BUY_TOO_SOON's retryAt): core playErrorSchema.
 */
export interface PlayFailure {
  ok: false;
  code: PlayErrorCode;
  message?: string;
  realityCheck?: RealityCheck;
  retryAt?: string;
}

export type PlayResult<T> = { ok: true; data: T } | PlayFailure;

export const fail = <T>(code: PlayErrorCode): PlayResult<T> => ({ ok: false, code });

/**
 * What a buy answers: the opened round, the balance the wallet reported (a free card's: the last
 * one reported) and the free cards left after it.
 */
export type BuyResult = PlayResult<{ round: PlayRound; balance: number; freeCards: FreeCardsState }>;

/** Who buys, with what: read from the session by the service. */
export interface BuyContext {
  session: GameSessionRecord;
  player: PlayerRecord;
  game: GameRecord;
  profile: ProfileRecord;
  wallet: Wallet;
}

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
      /** The round as the spec's Round (round-event.ts), built from what the unit holds. */
      payload: unknown;
      /** The round as this unit left it: what a wrapper needs of it, without reading it again. */
      round: RoundRecord;
    },
  ): Promise<unknown>;
}

/** What every flow of one play service is built on. */
export interface PlayRuntime {
  deps: Deps;
  wallets: WalletDirectory;
  events: RoundEventQueue;
  notifier: PlayNotifier;
  retry: WalletRetryPolicy;
  /** The session, player, game and profile of a request, cached (play-records.ts). */
  records: PlayRecords;
  /** The wallet calls this process is sending (calls-in-flight.ts). */
  calls: CallsInFlight;
  /** This process's name on the wallet calls it leases from the database. */
  leaseOwner: string;
  /** Tracks work that must finish before a clean stop. */
  track<T>(work: Promise<T>): Promise<T>;
}

export async function mustRound(repos: Repositories, id: string): Promise<RoundRecord> {
  const round = await repos.rounds.findRound(id);
  if (!round) throw new Error(`round ${id} not found`);
  return round;
}

/** The round with what its event shows (one statement): for a unit that may queue its event. */
export async function mustHeldRound(repos: Repositories, id: string): Promise<HeldRound> {
  const held = await repos.rounds.findHeldRound(id);
  if (!held) throw new Error(`round ${id} not found`);
  return held;
}

/** Thrown in a unit whose held round another unit moved on (the retrier took its bet over). */
export class RoundMovedError extends Error {
  constructor(roundId: string) {
    super(`round ${roundId} was moved on by another unit`);
  }
}

/**
 * What a unit holds of the round it changes: the round, and, when its changes queue an event, its
 * calls and (unless the unit updates the player, which returns it) its player (records.ts HeldRound).
 */
export type RoundInHand = Pick<HeldRound, 'round'> & Partial<Omit<HeldRound, 'round'>>;

/**
 * Waits for every statement a unit sent together, then throws the error of the first of them that
 * failed (in the order given, so the one a flow decides on wins), or returns their answers. No
 * statement is left running when the unit ends: one still in flight after its unit would run
 * outside it.
 */
export async function allInOrder<T extends readonly unknown[]>(
  sent: readonly [...{ [K in keyof T]: Promise<T[K]> }],
): Promise<T> {
  const settled = await Promise.allSettled(sent);
  for (const each of settled) if (each.status === 'rejected') throw each.reason;
  return settled.map((each) => (each as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

/**
 * Writes what a rule decided (wallet-outcomes.ts) on the round's transaction, and queues its webhook
 * event last, so the event's round shows every change. Returns the round as changed. `held`: the
 * round is the one the flow wrote, not read in this unit; its update is the check (RoundMovedError).
 * `before`: statements the unit sent ahead of these (awaited with them, their errors first).
 * `last`: nothing follows in the unit, so its COMMIT goes with the last statement.
 *
 * The writes do not need each other's answers, so they are sent together (one round trip on
 * PostgreSQL), in the order every unit locks: the round before the player. A check that fails
 * (the round moved on) rolls the whole unit back, the writes sent after it included. The event
 * needs the player as updated, so it follows their answers.
 */
export async function writeChanges(
  tx: Transaction,
  events: RoundEventQueue,
  hand: RoundInHand,
  changes: LedgerChanges,
  options: { held?: boolean; last?: boolean; before?: readonly Promise<unknown>[] } = {},
): Promise<RoundRecord> {
  const { round } = hand;
  const writes: Array<() => Promise<unknown>> = [];
  if (options.held) {
    // The round as this flow wrote it, not read again: written only if no one moved it on since.
    writes.push(async () => {
      if (!(await tx.rounds.updateRoundWhile(round.id, round.status, changes.round ?? {}))) {
        throw new RoundMovedError(round.id);
      }
    });
  } else if (changes.round) {
    const change = changes.round;
    writes.push(() => tx.rounds.updateRound(round.id, change));
  }
  for (const { id, change } of changes.transactions ?? [])
    writes.push(() => tx.rounds.updateTransaction(id, change));
  const { insert } = changes;
  if (insert) writes.push(() => tx.rounds.insertTransaction(insert));
  const playerChange = changes.player;
  let updatedPlayer: Promise<RoundPlayer> | undefined;
  if (playerChange) {
    writes.push(() => {
      updatedPlayer = tx.rounds.updatePlayer(
        round.playerId,
        round.currency,
        playerChange.balanceMinor,
        playerChange.betsAdded,
        playerChange.winsAdded,
      );
      return updatedPlayer;
    });
  }
  // Without an event the last write can carry the COMMIT, unless a write's answer is checked
  // (`held`). `before` must hold statements only: a check in it would come after the COMMIT
  // (guarded by write-changes.test.ts).
  const lastHere = options.last === true && !changes.event && !options.held;
  const sent = writes.map((write, i) => {
    if (lastHere && i === writes.length - 1) tx.lastStatement();
    return write();
  });
  const ahead = [...(options.before ?? []), ...sent];
  // The event waits for the writes' answers only when it needs one: the player as updated, or
  // the check (the COMMIT may ride with the event, and nothing may fail after it).
  const waitFirst = !changes.event || options.held === true || updatedPlayer !== undefined;
  if (waitFirst) await allInOrder(ahead);
  let { player } = hand;
  if (updatedPlayer) player = await updatedPlayer;
  const changed: RoundRecord = { ...round, ...changes.round };
  if (changes.event) {
    // A flow that queues an event holds what it shows: a missing part is a bug, not a read.
    if (!hand.calls || !player) {
      await allInOrder(ahead);
      throw new Error(`round ${round.id}: its event's calls or player not held`);
    }
    const payload = roundEventPayload(changed, callsAfter(hand.calls, changes), player);
    if (options.last) tx.lastStatement();
    const queued = events.enqueue(tx, {
      clientId: round.clientId,
      roundId: round.id,
      eventType: changes.event,
      payload,
      round: changed,
    });
    await allInOrder([...(waitFirst ? [] : ahead), queued]);
  }
  return changed;
}

/** What a wallet call of a round needs, read again (a retry may come long after the round). */
export async function callContext(
  runtime: Pick<PlayRuntime, 'records' | 'wallets'>,
  round: RoundRecord,
): Promise<{ wallet: Wallet; player: PlayerRecord; game: GameRecord }> {
  const { records } = runtime;
  const [profile, player, game] = await Promise.all([
    records.profile(round.profileId),
    records.player(round.playerId),
    records.game(round.gameId),
  ]);
  if (!profile || !player || !game) throw new Error(`round ${round.id} refers to missing records`);
  return { wallet: runtime.wallets.forProfile(profile), player, game };
}
