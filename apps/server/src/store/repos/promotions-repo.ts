import type { PromotionStatus } from '@raspa/core';
import type { Exec } from '../dialect/exec.ts';
import { idListParam, idRows } from '../dialect/fragments.ts';
import { type Dialect, statement } from '../dialect/statement.ts';
import type { PlayerGrant, PromotionEntry, PromotionFigures, PromotionRecord } from '../records.ts';
import type { PromotionsRepo } from '../repositories.ts';

const COLUMNS = `p.id, p.client_id AS "clientId", p.profile_id AS "profileId", p.game_id AS "gameId", p.name,
  p.cards_per_player AS "cardsPerPlayer", p.start_at AS "startAt", p.expire_at AS "expireAt",
  p.cancelled_at AS "cancelledAt", p.created_at AS "createdAt", g.bet_minor AS "cardMinor", g.currency`;

/**
 * Each status as a condition on the times at `:now`, the SQL twin of core's promotionStatus (times
 * are ISO 8601 UTC with milliseconds, so text order is time order); the contract suite checks
 * that both agree at the edges.
 */
const STATUS_CONDITION: Record<PromotionStatus, string> = {
  cancelled: 'p.cancelled_at IS NOT NULL',
  scheduled: 'p.cancelled_at IS NULL AND :now < p.start_at',
  active: 'p.cancelled_at IS NULL AND p.start_at <= :now AND :now < p.expire_at',
  ended: 'p.cancelled_at IS NULL AND p.expire_at <= :now',
};

interface Filter {
  clientId: string;
  profileId: string | null;
  gameId: string | null;
  now: string;
}

/** The filter's conditions; a null profile or game matches every one (a text cast so PostgreSQL knows the type). */
const matching = (d: Dialect, status: PromotionStatus | null) => {
  const text = d === 'postgres' ? '::text' : '';
  return `p.client_id = :clientId
   AND (:profileId${text} IS NULL OR p.profile_id = :profileId)
   AND (:gameId${text} IS NULL OR p.game_id = :gameId)
   ${status ? `AND ${STATUS_CONDITION[status]}` : ''}`;
};

/** One list and one count statement per status filter (and none): five texts, each prepared once. */
const byStatus = <T>(make: (status: PromotionStatus | null) => T) => {
  const made = new Map<PromotionStatus | null, T>();
  return (status: PromotionStatus | null): T => {
    let found = made.get(status);
    if (!found) {
      found = make(status);
      made.set(status, found);
    }
    return found;
  };
};

const listOf = byStatus((status) =>
  statement<Filter & { limit: number; offset: number }, PromotionEntry>(
    (d) => `SELECT ${COLUMNS} FROM promotions p JOIN games g ON g.id = p.game_id WHERE ${matching(d, status)}
     ORDER BY p.created_at DESC, p.id DESC LIMIT :limit OFFSET :offset`,
  ),
);
const countOf = byStatus((status) =>
  statement<Filter, { n: number }>(
    (d) => `SELECT count(*) AS n FROM promotions p WHERE ${matching(d, status)}`,
  ),
);

const insert = statement<PromotionRecord>(`INSERT INTO promotions (id, client_id, profile_id, game_id, name,
  cards_per_player, start_at, expire_at, cancelled_at, created_at) VALUES (:id, :clientId, :profileId, :gameId,
  :name, :cardsPerPlayer, :startAt, :expireAt, :cancelledAt, :createdAt)`);
const byId = statement<{ id: string }, PromotionEntry>(
  `SELECT ${COLUMNS} FROM promotions p JOIN games g ON g.id = p.game_id WHERE p.id = :id`,
);
/**
 * The figures of a page of promotions in one statement: players, cards granted and used from the
 * grants, and the completed prizes of its rounds (a promotion with rounds has grants: no grant is
 * ever deleted). The prizes go from the promotion to its free rounds by `rounds_by_promotion` and to
 * their prizes by `transactions_by_round`, so they read its rounds only, never a bought one.
 */
const figures = statement<{ ids: string | string[] }, PromotionFigures & { promotionId: string }>(
  (d) => `SELECT g.promotion_id AS "promotionId", count(*) AS players, sum(g.cards) AS granted,
   sum(g.used) AS used,
   (SELECT coalesce(sum(t.amount_minor), 0) FROM rounds r JOIN transactions t ON t.round_id = r.id
     WHERE r.promotion_id = g.promotion_id AND r.promotion_id IS NOT NULL
       AND t.type = 'prize' AND t.status = 'completed') AS "prizesMinor"
   FROM promotion_grants g WHERE g.promotion_id IN (${idRows(d, 'ids')}) GROUP BY g.promotion_id`,
);
const players = statement<{ profileId: string; ids: string | string[] }, { id: string }>(
  (d) => `SELECT id FROM players WHERE profile_id = :profileId AND id IN (${idRows(d, 'ids')})`,
);
// `WHERE` before `ON CONFLICT`: SQLite would otherwise read the ON as a join's (its documented parsing
// ambiguity). PostgreSQL types a bare parameter of a SELECT list as text, hence the casts.
const grant = statement<{ promotionId: string; profileId: string; ids: string | string[]; cards: number }>(
  (d) => `INSERT INTO promotion_grants (promotion_id, player_id, cards, used)
   SELECT ${d === 'postgres' ? ':promotionId::text, id, :cards::integer' : ':promotionId, id, :cards'}, 0 FROM players WHERE profile_id = :profileId AND id IN (${idRows(d, 'ids')})
   ON CONFLICT (promotion_id, player_id) DO NOTHING`,
);
const openCount = statement<{ profileId: string; now: string }, { n: number }>(
  `SELECT count(*) AS n FROM promotions
   WHERE profile_id = :profileId AND cancelled_at IS NULL AND expire_at > :now`,
);
const cancel = statement<{ id: string; at: string }>(
  'UPDATE promotions SET cancelled_at = :at WHERE id = :id AND cancelled_at IS NULL',
);
const grantsOf = statement<{ playerId: string }, PlayerGrant>(
  `SELECT g.promotion_id AS "promotionId", p.game_id AS "gameId", p.name, g.cards, g.used,
   p.start_at AS "startAt", p.expire_at AS "expireAt", p.cancelled_at AS "cancelledAt"
   FROM promotion_grants g JOIN promotions p ON p.id = g.promotion_id WHERE g.player_id = :playerId
   ORDER BY p.expire_at, p.start_at, p.id`,
);

export function createPromotionsRepo(x: Exec): PromotionsRepo {
  return {
    insert: async (promotion) => void (await x.run(insert, promotion)),
    findById: async (id) => x.first(byId, { id }),
    list: async ({ status, ...filter }, { pageIndex, pageSize }) => ({
      items: await x.all(listOf(status), { ...filter, limit: pageSize, offset: (pageIndex - 1) * pageSize }),
      totalCount: (await x.first(countOf(status), filter))?.n ?? 0,
    }),
    figuresOf: async (ids) => {
      const byPromotion = new Map<string, PromotionFigures>(
        ids.map((id) => [id, { players: 0, granted: 0, used: 0, prizesMinor: 0 }]),
      );
      if (ids.length === 0) return byPromotion;
      for (const { promotionId, ...row } of await x.all(figures, { ids: idListParam(x.dialect, ids) })) {
        byPromotion.set(promotionId, row);
      }
      return byPromotion;
    },
    notPlayersOf: async (profileId, playerIds) => {
      const ids = idListParam(x.dialect, playerIds);
      const found = new Set((await x.all(players, { profileId, ids })).map((row) => row.id));
      return playerIds.filter((id) => !found.has(id));
    },
    grant: async (promotionId, profileId, playerIds, cards) =>
      x.run(grant, { promotionId, profileId, ids: idListParam(x.dialect, playerIds), cards }),
    countOpen: async (profileId, now) => Number((await x.first(openCount, { profileId, now }))?.n ?? 0),
    cancel: async (id, at) => (await x.run(cancel, { id, at })) === 1,
    grantsOfPlayer: async (playerId) => x.all(grantsOf, { playerId }),
  };
}
