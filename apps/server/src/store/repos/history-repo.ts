import type { Exec } from '../dialect/exec.ts';
import { statement } from '../dialect/statement.ts';
import type { HistoryRoundRow } from '../records.ts';
import type { HistoryRepo } from '../repositories.ts';

/**
 * One statement over rounds_by_player (player_id, created_at, id), read backwards: the newest
 * rounds of one player, this game's kept, with no sort. It reads past the player's rounds of other
 * games; an index of its own would spare that, at a cost on every round's insert (docs/benchmarks.md). A round without a card (a bet the
 * wallet declined, or one still waiting on it) was never played, so it is not history.
 */
const recent = statement<{ playerId: string; gameId: string; limit: number }, HistoryRoundRow>(
  `SELECT id, status, card_json AS "cardJson", level, prize_minor AS "prizeMinor", paid_minor AS "paidMinor",
     created_at AS "createdAt", end_at AS "endAt"
   FROM rounds WHERE player_id = :playerId AND game_id = :gameId AND card_json IS NOT NULL
   ORDER BY created_at DESC, id DESC LIMIT :limit`,
);

export function createHistoryRepo(x: Exec): HistoryRepo {
  return {
    recentRounds: async (playerId, gameId, limit) => x.all(recent, { playerId, gameId, limit }),
  };
}
