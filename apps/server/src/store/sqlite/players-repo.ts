import { likeContains } from '../like-pattern.ts';
import type { PlayerRecord } from '../records.ts';
import type { PlayersRepo } from '../repositories.ts';
import type { Db } from './database.ts';
import type { Sync } from './sync.ts';

const COLUMNS = `p.id, p.client_id AS clientId, p.profile_id AS profileId, p.credential,
  p.credential_type AS credentialType, p.balance_minor AS balanceMinor, p.bet_wins AS betWins,
  p.total_bets AS totalBets, p.created_at AS createdAt`;

/** SQLite's lower() and LIKE fold ASCII only; players' names are often not ASCII (João, ÑANDÚ). */
const FOLD = 'raspa_fold';

export function createPlayersRepo(db: Db): Sync<PlayersRepo> {
  db.function(FOLD, { deterministic: true }, (value: unknown) =>
    typeof value === 'string' ? value.toLowerCase() : value,
  );
  const insert = db.prepare(`INSERT INTO players (id, client_id, profile_id, credential, credential_type,
    balance_minor, bet_wins, total_bets, created_at) VALUES (@id, @clientId, @profileId, @credential,
    @credentialType, @balanceMinor, @betWins, @totalBets, @createdAt)`);
  const byId = db.prepare<[string], PlayerRecord>(`SELECT ${COLUMNS} FROM players p WHERE p.id = ?`);
  const byCredential = db.prepare<[string, string, string], PlayerRecord>(
    `SELECT ${COLUMNS} FROM players p WHERE p.profile_id = ? AND p.credential_type = ? AND p.credential = ?`,
  );
  const matching = `p.profile_id = @profileId AND (@pattern IS NULL OR ${FOLD}(p.credential) LIKE @pattern ESCAPE '\\')`;
  const list = db.prepare<
    [{ profileId: string; pattern: string | null; limit: number; offset: number }],
    PlayerRecord
  >(
    `SELECT ${COLUMNS} FROM players p WHERE ${matching} ORDER BY p.created_at, p.id LIMIT @limit OFFSET @offset`,
  );
  const count = db.prepare<[{ profileId: string; pattern: string | null }], { n: number }>(
    `SELECT count(*) AS n FROM players p WHERE ${matching}`,
  );
  const insertToken = db.prepare(
    'INSERT INTO user_tokens (token_hash, player_id, expire_at, created_at) VALUES (@tokenHash, @playerId, @expireAt, @createdAt)',
  );
  const byToken = db.prepare<[string, string], PlayerRecord>(
    `SELECT ${COLUMNS} FROM user_tokens t JOIN players p ON p.id = t.player_id
     WHERE t.token_hash = ? AND t.expire_at > ?`,
  );
  const balanceIn = db.prepare<[string, string], { balanceMinor: number }>(
    'SELECT balance_minor AS balanceMinor FROM player_balances WHERE player_id = ? AND currency = ?',
  );
  const balancesOf = db.prepare<[string], { playerId: string; currency: string; balanceMinor: number }>(
    `SELECT player_id AS playerId, currency, balance_minor AS balanceMinor FROM player_balances
     WHERE player_id IN (SELECT value FROM json_each(?)) ORDER BY player_id, currency`,
  );
  return {
    balanceIn: (playerId, currency) => balanceIn.get(playerId, currency)?.balanceMinor,
    balancesOf: (playerIds) => {
      const byPlayer = new Map<string, Record<string, number>>(playerIds.map((id) => [id, {}]));
      if (playerIds.length === 0) return byPlayer;
      for (const row of balancesOf.all(JSON.stringify(playerIds))) {
        const balances = byPlayer.get(row.playerId);
        if (balances) balances[row.currency] = row.balanceMinor;
      }
      return byPlayer;
    },
    insert: (player) => void insert.run(player),
    findById: (id) => byId.get(id),
    findByCredential: (profileId, credentialType, credential) =>
      byCredential.get(profileId, credentialType, credential),
    listByProfile: (profileId, page, search) => {
      const filter = { profileId, pattern: search ? likeContains(search.toLowerCase()) : null };
      return {
        items: list.all({ ...filter, limit: page.pageSize, offset: (page.pageIndex - 1) * page.pageSize }),
        totalCount: count.get(filter)?.n ?? 0,
      };
    },
    insertUserToken: (token) => void insertToken.run(token),
    findByLiveUserToken: (tokenHash, now) => byToken.get(tokenHash, now),
  };
}
