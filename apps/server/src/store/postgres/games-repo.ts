import type { GameRecord } from '../records.ts';
import type { GamesRepo } from '../repositories.ts';
import { all, changes, first, type Sql } from './sql.ts';

interface GameRow extends Omit<GameRecord, 'ladder'> {
  ladderJson: string;
}

const COLUMNS = `id, client_id AS "clientId", profile_id AS "profileId", game_model AS "gameModel", version, active,
  lang, currency, rtp_ppm AS "rtpPpm", sampling, prized_ppm AS "prizedPpm", bet_minor AS "betMinor",
  ladder_json AS "ladderJson", created_at AS "createdAt"`;

const fromRow = ({ ladderJson, ...row }: GameRow): GameRecord => ({ ...row, ladder: JSON.parse(ladderJson) });

export function createGamesRepo(sql: Sql): GamesRepo {
  const one = async (text: string, values: unknown[]) => {
    const row = await first<GameRow>(sql, text, values);
    return row && fromRow(row);
  };
  return {
    insert: async (g) =>
      void (await sql.query(
        `INSERT INTO games (id, client_id, profile_id, game_model, version, active, lang, currency, rtp_ppm,
          sampling, prized_ppm, bet_minor, ladder_json, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
        [
          g.id,
          g.clientId,
          g.profileId,
          g.gameModel,
          g.version,
          g.active,
          g.lang,
          g.currency,
          g.rtpPpm,
          g.sampling,
          g.prizedPpm,
          g.betMinor,
          JSON.stringify(g.ladder),
          g.createdAt,
        ],
      )),
    findById: (id) => one(`SELECT ${COLUMNS} FROM games WHERE id = $1`, [id]),
    findActive: (profileId, gameModel) =>
      one(`SELECT ${COLUMNS} FROM games WHERE profile_id = $1 AND game_model = $2 AND active`, [
        profileId,
        gameModel,
      ]),
    lastVersion: async (profileId, gameModel) =>
      (
        await first<{ version: number | null }>(
          sql,
          'SELECT max(version) AS version FROM games WHERE profile_id = $1 AND game_model = $2',
          [profileId, gameModel],
        )
      )?.version ?? 0,
    listByProfile: async (profileId) =>
      (
        await all<GameRow>(
          sql,
          `SELECT ${COLUMNS} FROM games WHERE profile_id = $1 ORDER BY game_model, version`,
          [profileId],
        )
      ).map(fromRow),
    setActive: async (id, active) =>
      void (await sql.query('UPDATE games SET active = $1 WHERE id = $2', [active, id])),
    deactivateOthers: (profileId, gameModel, keepId) =>
      changes(
        sql,
        'UPDATE games SET active = false WHERE profile_id = $1 AND game_model = $2 AND active AND id <> $3',
        [profileId, gameModel, keepId],
      ),
  };
}
