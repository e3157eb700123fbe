/**
 * What a buy's round insert may also check (issue 25, docs/player-protection.md "How the buy reads
 * protection"), beside the game being active and one live round per player. Checked in the insert
 * itself, so they cost no statement, hold on every instance, and the buy needs no cached knowledge
 * of the player: a limit or exclusion another instance set refuses the next insert here.
 */
export interface LiveRoundGuards {
  /**
   * Refuse when the player has any stored limit or an exclusion that holds at this instant (ISO):
   * the buy has not read the player's protection, so it must learn of it before inserting.
   */
  unprotectedAt?: string;
  /**
   * Refuse when the player bought a round created after this instant (ISO): the jurisdiction's
   * minimum time between buys (GB). A declined or voided round was no game cycle and does not count.
   */
  noBuySince?: string;
}

/** The guards' parameter values, by the names `liveRoundGuardsSql` binds. */
export function liveRoundGuardValues(guards: LiveRoundGuards): Record<string, string> {
  return {
    ...(guards.unprotectedAt !== undefined && { guardNow: guards.unprotectedAt }),
    ...(guards.noBuySince !== undefined && { guardSince: guards.noBuySince }),
  };
}

/**
 * The guards as `AND …` conditions for the insert's WHERE (empty for none). `param` writes a
 * parameter of the adapter's statement (`playerId` is the round's own field). Both by index:
 * player_limits' and player_exclusions' primary keys, rounds_by_player (player_id, created_at, id).
 */
export function liveRoundGuardsSql(
  guards: LiveRoundGuards,
  param: (name: 'playerId' | 'guardNow' | 'guardSince') => string,
): string {
  let sql = '';
  if (guards.unprotectedAt !== undefined) {
    sql += ` AND NOT EXISTS (SELECT 1 FROM player_limits WHERE player_id = ${param('playerId')})
      AND NOT EXISTS (SELECT 1 FROM player_exclusions WHERE player_id = ${param('playerId')}
        AND (ends_at IS NULL OR ends_at > ${param('guardNow')}))`;
  }
  if (guards.noBuySince !== undefined) {
    sql += ` AND NOT EXISTS (SELECT 1 FROM rounds WHERE player_id = ${param('playerId')}
      AND created_at > ${param('guardSince')} AND status NOT IN ('declined', 'voided'))`;
  }
  return sql;
}

/** A short key of which guards are on: the adapters keep one prepared text per key. */
export const liveRoundGuardsKey = (guards: LiveRoundGuards): string =>
  `${guards.unprotectedAt !== undefined ? 'p' : ''}${guards.noBuySince !== undefined ? 'g' : ''}`;
