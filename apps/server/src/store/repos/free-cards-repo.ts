import type { Exec } from '../dialect/exec.ts';
import { type Dialect, statement } from '../dialect/statement.ts';
import type { PlayerGrant } from '../records.ts';
import type { FreeCardsRepo } from '../repositories.ts';

/*
 * The play of a free card (docs/promotions.md, "A card used exactly once"): the reads the buy
 * plans on and the grant's conditional use, which the buy runs in the unit that inserts the round.
 * Times are ISO 8601 UTC with milliseconds, so text order is time order (as promotions-repo.ts).
 */

/** The promotion's window holds `now` and it is not cancelled: core's `active`, in SQL. */
const ACTIVE_AT = (promotion: string, now: string) =>
  `${promotion}.cancelled_at IS NULL AND ${promotion}.start_at <= ${now} AND ${now} < ${promotion}.expire_at`;

/**
 * A card of the promotion's game is played in a session of the session's game: the same version, or
 * another version of the same model in the same profile with the same card price and currency
 * (docs/contract.md §14, our decisions: a replaced version's cards follow the model, a repriced one's
 * do not). Two primary-key probes of games, only for a player's grants.
 */
const CARD_FITS = (promotionGame: string, sessionGame: string) =>
  `(${promotionGame} = ${sessionGame} OR EXISTS (SELECT 1 FROM games cg JOIN games sg
     ON sg.profile_id = cg.profile_id AND sg.game_model = cg.game_model AND sg.currency = cg.currency
       AND sg.bet_minor = cg.bet_minor
     WHERE cg.id = ${promotionGame} AND sg.id = ${sessionGame}))`;

/**
 * The condition a bought round's insert adds (sqlite/ and postgres/ rounds-repo.ts `insertLiveRound`):
 * the player holds no usable card for the round's game at its creation (CARD_FITS), or the round is a
 * free card's.
 * So a player without cards pays no statement for them (an index probe inside the insert), and a
 * player holding one is refused the bought insert, then the buy reads the grants and plays the card
 * (bet-flow.ts). Always fresh, on every instance: nothing is cached. `param` names a round field's
 * parameter as the adapter binds it.
 */
export function noUsableFreeCard(
  d: Dialect,
  param: (field: 'playerId' | 'gameId' | 'createdAt' | 'promotionId') => string,
): string {
  const promotionId = d === 'postgres' ? `${param('promotionId')}::text` : param('promotionId');
  return `(${promotionId} IS NOT NULL OR NOT EXISTS (SELECT 1 FROM promotion_grants fg
     JOIN promotions fp ON fp.id = fg.promotion_id
     WHERE fg.player_id = ${param('playerId')} AND ${CARD_FITS('fp.game_id', param('gameId'))} AND fg.used < fg.cards
       AND ${ACTIVE_AT('fp', param('createdAt'))}))`;
}

const grantsOfGame = statement<{ playerId: string; gameId: string }, PlayerGrant>(
  `SELECT g.promotion_id AS "promotionId", p.game_id AS "gameId", p.name, g.cards, g.used,
   p.start_at AS "startAt", p.expire_at AS "expireAt", p.cancelled_at AS "cancelledAt"
   FROM promotion_grants g JOIN promotions p ON p.id = g.promotion_id
   WHERE g.player_id = :playerId AND ${CARD_FITS('p.game_id', ':gameId')}
   ORDER BY p.expire_at, p.start_at, p.id`,
);

/**
 * One card of the grant, only if one is left and the promotion is active at `now` for this game (CARD_FITS): the
 * row lock of the UPDATE (re-checked after a wait at READ COMMITTED) keeps two buys from using one card.
 */
const useCard = statement<{ promotionId: string; playerId: string; gameId: string; now: string }>(
  `UPDATE promotion_grants SET used = used + 1
   WHERE promotion_id = :promotionId AND player_id = :playerId AND used < cards
     AND EXISTS (SELECT 1 FROM promotions p WHERE p.id = :promotionId AND ${CARD_FITS('p.game_id', ':gameId')}
       AND ${ACTIVE_AT('p', ':now')})`,
);

export function createFreeCardsRepo(x: Exec): FreeCardsRepo {
  return {
    grantsOfGame: async (playerId, gameId) => x.all(grantsOfGame, { playerId, gameId }),
    useCard: async (card) => (await x.run(useCard, card)) === 1,
  };
}
