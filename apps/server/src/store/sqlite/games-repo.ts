import type { Ladder } from '@raspa/core';
import type { GameRecord } from '../records.ts';
import type { GamesRepo } from '../repositories.ts';
import type { Db } from './database.ts';
import type { Sync } from './sync.ts';

interface GameRow extends Omit<GameRecord, 'active' | 'ladder'> {
  active: number;
  ladderJson: string;
}

const COLUMNS = `id, client_id AS clientId, profile_id AS profileId, game_model AS gameModel, version, active,
  lang, currency, rtp_ppm AS rtpPpm, sampling, prized_ppm AS prizedPpm, bet_minor AS betMinor,
  ladder_json AS ladderJson, created_at AS createdAt`;

const fromRow = ({ ladderJson, active, ...row }: GameRow): GameRecord => ({
  ...row,
  active: active === 1,
  ladder: JSON.parse(ladderJson) as Ladder,
});

export function createGamesRepo(db: Db): Sync<GamesRepo> {
  const insert = db.prepare(`INSERT INTO games (id, client_id, profile_id, game_model, version, active, lang,
    currency, rtp_ppm, sampling, prized_ppm, bet_minor, ladder_json, created_at) VALUES (@id, @clientId,
    @profileId, @gameModel, @version, @active, @lang, @currency, @rtpPpm, @sampling, @prizedPpm, @betMinor,
    @ladderJson, @createdAt)`);
  const byId = db.prepare<[string], GameRow>(`SELECT ${COLUMNS} FROM games WHERE id = ?`);
  const active = db.prepare<[string, string], GameRow>(
    `SELECT ${COLUMNS} FROM games WHERE profile_id = ? AND game_model = ? AND active = 1`,
  );
  const lastVersion = db.prepare<[string, string], { version: number | null }>(
    'SELECT max(version) AS version FROM games WHERE profile_id = ? AND game_model = ?',
  );
  const byProfile = db.prepare<[string], GameRow>(
    `SELECT ${COLUMNS} FROM games WHERE profile_id = ? ORDER BY game_model, version`,
  );
  const setActive = db.prepare('UPDATE games SET active = ? WHERE id = ?');
  const deactivateOthers = db.prepare(
    'UPDATE games SET active = 0 WHERE profile_id = ? AND game_model = ? AND active = 1 AND id <> ?',
  );
  return {
    insert: ({ ladder, active, ...game }) =>
      void insert.run({ ...game, active: active ? 1 : 0, ladderJson: JSON.stringify(ladder) }),
    findById: (id) => {
      const row = byId.get(id);
      return row && fromRow(row);
    },
    findActive: (profileId, gameModel) => {
      const row = active.get(profileId, gameModel);
      return row && fromRow(row);
    },
    lastVersion: (profileId, gameModel) => lastVersion.get(profileId, gameModel)?.version ?? 0,
    listByProfile: (profileId) => byProfile.all(profileId).map(fromRow),
    setActive: (id, value) => void setActive.run(value ? 1 : 0, id),
    deactivateOthers: (profileId, gameModel, keepId) =>
      deactivateOthers.run(profileId, gameModel, keepId).changes,
  };
}
