import { planBuy } from '@raspa/core';
import { isoNow } from '../clock.ts';
import type { GameRecord } from '../store/records.ts';
import { ROW_LOCKS, type Transaction } from '../store/store.ts';
import { freeCardGrantOf, freeCardsState } from './free-card-grants.ts';
import {
  allInOrder,
  type BuyContext,
  type BuyResult,
  mustHeldRound,
  type PlayRuntime,
  writeChanges,
} from './play-runtime.ts';
import { BlockLostError, type TicketReservation } from './pool-drawer.ts';
import { newRound, playRoundOf, type Ticket } from './round-records.ts';

/** Draws a reserved ticket on the round's unit (bet-flow.ts): the ticket, and its block's check. */
export type TicketDraw = (
  tx: Transaction,
  game: GameRecord,
  ticket: TicketReservation,
) => { ticket: Ticket; held: Promise<void> };

/**
 * What a free card's play came to: `played` (opened, or refused as any buy would be); `no-card`:
 * the player held no usable card when read, so a bought buy was refused for its live round;
 * `card-gone`: the card was used by another buy, cancelled or expired before the unit, which
 * wrote nothing (the buy may be bought).
 */
export type FreePlay = { kind: 'played'; result: BuyResult } | { kind: 'no-card' } | { kind: 'card-gone' };

/** Thrown inside the unit to roll it back: nothing of it may stay. */
class Refused extends Error {
  constructor(readonly reason: 'no-card' | 'round-in-progress') {
    super(reason);
  }
}

/**
 * A buy with a free card (docs/promotions.md, "A card used exactly once"): no bet. The card's use
 * and its round's opening are one unit: the grant's conditional `used = used + 1`, the round
 * inserted `open` with its ticket and `promotionId`, and its open-round event. After a crash
 * either both are there or neither; two buys of one card (tabs, processes, instances) meet on
 * the grant's row (one gets it) and on the one-live-round index (the other rolls its use back).
 */
export function createFreeCardFlow(
  runtime: PlayRuntime,
  drawer: { reserve(game: GameRecord): Promise<TicketReservation> },
  drawTicket: TicketDraw,
) {
  const { deps, events } = runtime;
  const { store } = deps;

  /**
   * Plays the player's first card to expire, drawing `reserved` (settled here when drawn). Read
   * only when the bought insert was refused: a player without cards never comes here.
   */
  async function play(
    { player, game, session, profile }: BuyContext,
    reserved: TicketReservation,
  ): Promise<FreePlay> {
    const now = isoNow(deps);
    const grants = (await store.freeCards.grantsOfGame(player.id, game.id)).map(freeCardGrantOf);
    const plan = planBuy(grants, game.betMinor, Date.parse(now));
    if (plan.kind === 'bought') return { kind: 'no-card' };
    const round = {
      ...newRound(
        game,
        { roundId: deps.newId(), playerId: player.id, sessionId: session.id },
        now,
        profile.type === 'test',
      ),
      paidMinor: 0,
      promotionId: plan.promotionId,
    };
    let ticket = reserved;
    for (;;) {
      try {
        const opened = await store.transaction(async (tx) => {
          const drawn = drawTicket(tx, game, ticket);
          const open = {
            ...round,
            status: 'open' as const,
            poolId: drawn.ticket.poolId,
            drawIndex: drawn.ticket.drawIndex,
            level: drawn.ticket.level,
            cardJson: drawn.ticket.cardJson,
            prizeMinor: drawn.ticket.prizeMinor,
            // Fixed with the outcome, as a bought round's (wallet-outcomes.ts betOutcome).
            prizeTransactionId: drawn.ticket.prizeMinor > 0 ? deps.newId() : null,
          };
          const card = { promotionId: plan.promotionId, playerId: player.id, gameId: game.id, now };
          const [used] = await allInOrder([tx.freeCards.useCard(card), drawn.held]);
          if (!used) throw new Refused('no-card');
          // The one-live-round index and the game's `active` decide; a refusal undoes the use.
          if (!(await tx.rounds.insertLiveRound(open))) throw new Refused('round-in-progress');
          // The round with its player as its event shows them: no bet, so no player write returns it.
          const held = await mustHeldRound(tx, open.id);
          await writeChanges(tx, events, held, { event: 'open-round' }, { last: true });
          return held;
        }, ROW_LOCKS);
        ticket.settle('drawn');
        const view = playRoundOf(opened.round);
        if (!view) throw new Error(`free round ${round.id} opened without a card`);
        const left = grants.map((g) => (g.promotionId === plan.promotionId ? { ...g, used: g.used + 1 } : g));
        deps.logger.info('free round opened', { roundId: round.id, promotionId: plan.promotionId });
        return {
          kind: 'played',
          result: {
            ok: true,
            data: {
              round: view,
              balance: opened.player.balanceMinor,
              freeCards: freeCardsState(left, Date.parse(now)),
            },
          },
        };
      } catch (error) {
        if (error instanceof Refused) {
          ticket.settle('unused');
          if (error.reason === 'no-card') return { kind: 'card-gone' };
          return { kind: 'played', result: { ok: false, code: 'ROUND_IN_PROGRESS' } };
        }
        // The block's lease ran out and another process took it: the same card, another ticket.
        if (!(error instanceof BlockLostError)) {
          ticket.settle('unsure');
          throw error;
        }
        ticket.settle('unused');
        ticket = await drawer.reserve(game);
      }
    }
  }

  return { play };
}
