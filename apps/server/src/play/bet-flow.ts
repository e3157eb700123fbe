import { layoutCard, type Rng } from '@raspa/core';
import { isoNow } from '../clock.ts';
import type { Deps } from '../deps.ts';
import type { GameRecord, LedgerTransaction, RoundRecord } from '../store/records.ts';
import { ROW_LOCKS, type Transaction } from '../store/store.ts';
import type { WalletAnswer } from '../wallet/wallet.ts';
import { createBuyProtection } from './buy-protection.ts';
import { createTicketSource } from './forced-cards.ts';
import { createFreeCardFlow } from './free-card-flow.ts';
import { NO_FREE_CARDS } from './free-card-grants.ts';
import {
  type BuyContext,
  type BuyResult,
  fail,
  type PlayRuntime,
  RoundMovedError,
  writeChanges,
} from './play-runtime.ts';
import { BlockLostError, createPoolDrawer, type TicketReservation } from './pool-drawer.ts';
import { inFlightUntil } from './retry-schedule.ts';
import { newBet, newRound, playRoundOf, prizeOfLevel, type Ticket, walletMovement } from './round-records.ts';
import { type SentCall, timedSend, walletAttemptRecord } from './wallet-attempt.ts';
import { betOutcome } from './wallet-outcomes.ts';

/** A buy planned on a free card that went before its unit: bought instead (`buy`). */
const CARD_GONE = Symbol('card gone');

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
 * A buy (docs/contract.md §6): commits the round and its bet `pending`, sends the bet, and writes
 * what the answer means (wallet-outcomes.ts `betOutcome`): the round opens on the next ticket of
 * the pool, or is declined, or is voided with its bet rolled back by the retrier (`settleDue`).
 */
export function createBetFlow(runtime: PlayRuntime, settleDue: () => Promise<number>) {
  const { deps, retry, notifier, events, calls, track } = runtime;
  const { store } = deps;
  const drawer = createPoolDrawer(deps, runtime.leaseOwner);
  const tickets = createTicketSource(store, drawer);
  const rng = rngFrom(deps.random);
  const protection = createBuyProtection(runtime);

  /**
   * Draws the round's reserved ticket, on the round's transaction; `held` is the block's check,
   * sent ahead of the round's writes (pool-drawer.ts).
   */
  function drawTicket(
    tx: Transaction,
    game: GameRecord,
    ticket: TicketReservation,
  ): { ticket: Ticket; held: Promise<void> } {
    const { draw, held } = ticket.draw(tx);
    const card = layoutCard(game.gameModel, game.ladder, draw.level, rng);
    return {
      ticket: { ...draw, cardJson: JSON.stringify(card), prizeMinor: prizeOfLevel(game.ladder, draw.level) },
      held,
    };
  }

  const freeCards = createFreeCardFlow(runtime, drawer, drawTicket);

  async function buy(context: BuyContext): Promise<BuyResult> {
    for (let attempt = 1; ; attempt++) {
      // The ticket is set aside before anything is written: no bet is sent without one.
      const ticket = await tickets.reserve(context);
      try {
        const result = await buyWith(context, ticket);
        // The free card went before its unit (another buy, a cancellation, its expiry): buy it, once.
        if (result !== CARD_GONE) return result;
        if (attempt >= 2) return fail('ROUND_IN_PROGRESS');
      } finally {
        ticket.settle('unused'); // when it went no further than this: a settled ticket stays settled
      }
    }
  }

  async function buyWith(
    context: BuyContext,
    ticket: TicketReservation,
  ): Promise<BuyResult | typeof CARD_GONE> {
    const { player, game, session, wallet } = context;
    const nowMs = deps.clock().getTime();
    // Player protection before the wallet (buy-protection.ts): nothing charged, no round written.
    const checked = await protection.check(context, nowMs);
    if (!checked.ok) return checked;
    const now = new Date(nowMs).toISOString();
    const roundId = deps.newId();
    const betId = deps.newId();
    const round = newRound(
      game,
      { roundId, playerId: player.id, sessionId: session.id },
      now,
      context.profile.type === 'test',
    );
    const bet = newBet(round, betId, now, inFlightUntil(retry, isoNow(deps)));
    // Only for an active game, at most one round waiting on the wallet or in play per player, only
    // if the player holds no usable free card of the game, and protection's guards: the insert
    // checks them all (a unique index and conditions, no read before it), and writes the bet with
    // the round or neither. One statement, its COMMIT with it.
    const insert = (guards: typeof checked.guards) =>
      store.transaction(async (tx) => {
        tx.lastStatement();
        return tx.rounds.insertLiveRound(round, bet, guards);
      }, ROW_LOCKS);
    let inserted = await insert(checked.guards);
    if (!inserted) {
      // A guard may have refused it: the player is protected (learnt now) or bought too soon.
      const explained = await protection.explain(context, checked.guards, nowMs);
      if (explained && !explained.ok) return explained;
      if (explained) inserted = await insert(explained.guards);
    }
    if (!inserted) {
      // Why not, only if not: read after the unit (it wrote nothing), as READ COMMITTED would have.
      // Its session ended on another process whose word of it this one missed: kept ended now.
      const fresh = await runtime.records.freshSession(session.id);
      if (fresh?.endCode) return fail(fresh.endCode);
      const current = await store.games.findById(game.id);
      if (!current?.active) return fail('GAME_INACTIVE');
      // A free card is played without a bet (free-card-flow.ts); without one, the live round refused it.
      const free = await freeCards.play(context, ticket);
      if (free.kind === 'card-gone') return CARD_GONE;
      return free.kind === 'played' ? free.result : fail('ROUND_IN_PROGRESS');
    }
    const result = await calls.sending(bet.id, async () => {
      const { answer, sent } = await track(
        timedSend(
          () => isoNow(deps),
          () => wallet.bet(walletMovement(bet, round, player, game)),
        ),
      );
      return settleBet(round, bet, context, answer, sent, ticket);
    });
    // Only if another sender held a bet made a moment ago, which cannot be.
    if (!result) throw new Error(`bet ${bet.id} was already being sent`);
    return result;
  }

  /**
   * Writes what the wallet's answer to the bet means (wallet-outcomes.ts `betOutcome`), on the round
   * and bet as the buy wrote them: not read again (issue 23). The round's update is the check that
   * no one moved it on meanwhile: the retrier takes a bet over once its in-flight time has passed.
   */
  async function settleBet(
    round: RoundRecord,
    bet: LedgerTransaction,
    context: BuyContext,
    answer: WalletAnswer,
    sent: SentCall,
    reserved: TicketReservation,
  ): Promise<BuyResult> {
    const { id: roundId, playerId } = round;
    const { game } = context;
    let rollbackQueued = false;
    let drew = false;
    let ticket = reserved;
    const attempt = (tx: Transaction) =>
      tx.rounds.insertWalletAttempt(walletAttemptRecord(deps.newId(), bet, answer, sent));
    const settle = () =>
      store.transaction(async (tx): Promise<BuyResult> => {
        drew = false;
        // Sent ahead, not awaited: it rides with the unit's writes (writeChanges awaits it first).
        const attempted = attempt(tx);
        // Handled here too, so a throw before it is awaited leaves no unhandled rejection.
        void attempted.catch(() => {});
        const outcome = betOutcome(answer, round, bet, () => deps.newId(), isoNow(deps));
        const hand = { round, calls: [bet] };
        switch (outcome.kind) {
          case 'opened': {
            const drawn = drawTicket(tx, game, ticket);
            const changes = outcome.open(drawn.ticket);
            // Checked before the unit's last statement: once its COMMIT is out, nothing may fail.
            const view = playRoundOf({ ...round, ...changes.round });
            if (!view) throw new Error(`round ${roundId} opened without a card`);
            await writeChanges(tx, events, hand, changes, {
              held: true,
              last: true,
              before: [attempted, drawn.held],
            });
            drew = true;
            // Bought: the insert found no usable free card (noUsableFreeCard), so none is left.
            return {
              ok: true,
              data: { round: view, balance: outcome.balanceMinor, freeCards: NO_FREE_CARDS },
            };
          }
          case 'declined':
            await writeChanges(tx, events, hand, outcome.changes, {
              held: true,
              last: true,
              before: [attempted],
            });
            return fail(outcome.code);
          case 'voided':
            await writeChanges(tx, events, hand, outcome.changes, {
              held: true,
              last: true,
              before: [attempted],
            });
            rollbackQueued = true;
            return fail(outcome.code);
          case 'taken-over':
            await attempted;
            return fail(outcome.code);
        }
      }, ROW_LOCKS);
    /** The answer came after the retrier took the bet over: only the attempt is recorded. */
    const takenOver = async (): Promise<BuyResult> => {
      await store.transaction(attempt, ROW_LOCKS);
      return fail('WALLET_UNAVAILABLE');
    };
    let result: BuyResult;
    for (;;) {
      try {
        result = await settle();
        break;
      } catch (error) {
        if (error instanceof RoundMovedError) {
          drew = false;
          result = await takenOver();
          break;
        }
        // The block's lease ran out and another process took it: the same answer, another ticket.
        if (!(error instanceof BlockLostError)) {
          ticket.settle('unsure');
          throw error;
        }
        ticket.settle('unused');
        ticket = await tickets.reserve(context);
      }
    }
    ticket.settle(drew ? 'drawn' : 'unused');
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
    // Committed: the rollback is due now; send it without keeping the player waiting.
    if (rollbackQueued) void settleDue();
    return result;
  }

  return { buy, giveBackBlocks: drawer.giveBack, protection };
}
