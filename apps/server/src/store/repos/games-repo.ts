import type { Ladder } from '@raspa/core';
import type { Exec } from '../dialect/exec.ts';
import { flag, isSet } from '../dialect/fragments.ts';
import { statement } from '../dialect/statement.ts';
import type { GameRecord } from '../records.ts';
import type { GamesRepo } from '../repositories.ts';

/** As stored: the ladder as JSON text, the flag as 1/0 (SQLite) or a boolean (PostgreSQL). */
interface GameRow extends Omit<GameRecord, 'active' | 'ladder'> {
  active: number | boolean;
  ladderJson: string;
}

const COLUMNS = `id, client_id AS "clientId", profile_id AS "profileId", game_model AS "gameModel", version,
  active, lang, currency, rtp_ppm AS "rtpPpm", sampling, prized_ppm AS "prizedPpm", bet_minor AS "betMinor",
  ladder_json AS "ladderJson", created_at AS "createdAt"`;

const fromRow = ({ ladderJson, active, ...row }: GameRow): GameRecord => ({
  ...row,
  active: active === true || active === 1,
  ladder: JSON.parse(ladderJson) as Ladder,
});

const insert = statement<
  Omit<GameRecord, 'ladder'> & { ladderJson: string }
>(`INSERT INTO games (id, client_id,
  profile_id, game_model, version, active, lang, currency, rtp_ppm, sampling, prized_ppm, bet_minor, ladder_json,
  created_at) VALUES (:id, :clientId, :profileId, :gameModel, :version, :active, :lang, :currency, :rtpPpm,
  :sampling, :prizedPpm, :betMinor, :ladderJson, :createdAt)`);
const byId = statement<{ id: string }, GameRow>(`SELECT ${COLUMNS} FROM games WHERE id = :id`);
const active = statement<{ profileId: string; gameModel: string }, GameRow>(
  (d) =>
    `SELECT ${COLUMNS} FROM games WHERE profile_id = :profileId AND game_model = :gameModel AND ${isSet(d, 'active')}`,
);
const lastVersion = statement<{ profileId: string; gameModel: string }, { version: number | null }>(
  'SELECT max(version) AS version FROM games WHERE profile_id = :profileId AND game_model = :gameModel',
);
const byProfile = statement<{ profileId: string }, GameRow>(
  `SELECT ${COLUMNS} FROM games WHERE profile_id = :profileId ORDER BY game_model, version`,
);
const setActive = statement<{ id: string; active: boolean }>(
  'UPDATE games SET active = :active WHERE id = :id',
);
const deactivateOthers = statement<{ profileId: string; gameModel: string; keepId: string }>(
  (d) => `UPDATE games SET active = ${flag(d, false)}
   WHERE profile_id = :profileId AND game_model = :gameModel AND ${isSet(d, 'active')} AND id <> :keepId`,
);

export function createGamesRepo(x: Exec): GamesRepo {
  return {
    insert: async ({ ladder, ...game }) =>
      void (await x.run(insert, { ...game, ladderJson: JSON.stringify(ladder) })),
    findById: async (id) => {
      const row = await x.first(byId, { id });
      return row && fromRow(row);
    },
    findActive: async (profileId, gameModel) => {
      const row = await x.first(active, { profileId, gameModel });
      return row && fromRow(row);
    },
    lastVersion: async (profileId, gameModel) =>
      (await x.first(lastVersion, { profileId, gameModel }))?.version ?? 0,
    listByProfile: async (profileId) => (await x.all(byProfile, { profileId })).map(fromRow),
    setActive: async (id, value) => void (await x.run(setActive, { id, active: value })),
    deactivateOthers: async (profileId, gameModel, keepId) =>
      x.run(deactivateOthers, { profileId, gameModel, keepId }),
  };
}
