import type { Exec } from '../dialect/exec.ts';
import { folded, idListParam, idRows } from '../dialect/fragments.ts';
import { type Dialect, statement } from '../dialect/statement.ts';
import { likeContains } from '../like-pattern.ts';
import type { PlayerRecord } from '../records.ts';
import type { PlayersRepo } from '../repositories.ts';

const COLUMNS = `p.id, p.client_id AS "clientId", p.profile_id AS "profileId", p.credential,
  p.credential_type AS "credentialType", p.balance_minor AS "balanceMinor", p.bet_wins AS "betWins",
  p.total_bets AS "totalBets", p.created_at AS "createdAt"`;

/** Case is ignored beyond ASCII (João, ÑANDÚ): fragments.ts `folded`; the search text is lowered by JS. */
const matching = (d: Dialect) =>
  `p.profile_id = :profileId AND (:pattern${d === 'postgres' ? '::text' : ''} IS NULL
   OR ${folded(d, 'p.credential')} LIKE :pattern ESCAPE '\\')`;

interface Filter {
  profileId: string;
  pattern: string | null;
}

const insert = statement<PlayerRecord>(`INSERT INTO players (id, client_id, profile_id, credential,
  credential_type, balance_minor, bet_wins, total_bets, created_at) VALUES (:id, :clientId, :profileId,
  :credential, :credentialType, :balanceMinor, :betWins, :totalBets, :createdAt)`);
const byId = statement<{ id: string }, PlayerRecord>(`SELECT ${COLUMNS} FROM players p WHERE p.id = :id`);
const byCredential = statement<
  { profileId: string; credentialType: string; credential: string },
  PlayerRecord
>(
  `SELECT ${COLUMNS} FROM players p
   WHERE p.profile_id = :profileId AND p.credential_type = :credentialType AND p.credential = :credential`,
);
const list = statement<Filter & { limit: number; offset: number }, PlayerRecord>(
  (d) =>
    `SELECT ${COLUMNS} FROM players p WHERE ${matching(d)} ORDER BY p.created_at, p.id LIMIT :limit OFFSET :offset`,
);
const count = statement<Filter, { n: number }>(
  (d) => `SELECT count(*) AS n FROM players p WHERE ${matching(d)}`,
);
const insertToken = statement<{ tokenHash: string; playerId: string; expireAt: string; createdAt: string }>(
  `INSERT INTO user_tokens (token_hash, player_id, expire_at, created_at)
   VALUES (:tokenHash, :playerId, :expireAt, :createdAt)`,
);
const byToken = statement<{ tokenHash: string; now: string }, PlayerRecord>(
  `SELECT ${COLUMNS} FROM user_tokens t JOIN players p ON p.id = t.player_id
   WHERE t.token_hash = :tokenHash AND t.expire_at > :now`,
);
const balanceIn = statement<{ playerId: string; currency: string }, { balanceMinor: number }>(
  'SELECT balance_minor AS "balanceMinor" FROM player_balances WHERE player_id = :playerId AND currency = :currency',
);
/** The ids as one parameter, so one text serves any number of them: a JSON array, a text[]. */
const balancesOf = statement<
  { ids: string | string[] },
  { playerId: string; currency: string; balanceMinor: number }
>(
  (d) => `SELECT player_id AS "playerId", currency, balance_minor AS "balanceMinor" FROM player_balances
   WHERE player_id IN (${idRows(d, 'ids')})
   ORDER BY player_id, currency`,
);

export function createPlayersRepo(x: Exec): PlayersRepo {
  return {
    insert: async (player) => void (await x.run(insert, player)),
    findById: async (id) => x.first(byId, { id }),
    findByCredential: async (profileId, credentialType, credential) =>
      x.first(byCredential, { profileId, credentialType, credential }),
    listByProfile: async (profileId, page, search) => {
      const filter = { profileId, pattern: search ? likeContains(search.toLowerCase()) : null };
      const offset = (page.pageIndex - 1) * page.pageSize;
      return {
        items: await x.all(list, { ...filter, limit: page.pageSize, offset }),
        totalCount: (await x.first(count, filter))?.n ?? 0,
      };
    },
    insertUserToken: async (token) => void (await x.run(insertToken, token)),
    findByLiveUserToken: async (tokenHash, now) => x.first(byToken, { tokenHash, now }),
    balanceIn: async (playerId, currency) => (await x.first(balanceIn, { playerId, currency }))?.balanceMinor,
    balancesOf: async (playerIds) => {
      const byPlayer = new Map<string, Record<string, number>>(playerIds.map((id) => [id, {}]));
      if (playerIds.length === 0) return byPlayer;
      for (const row of await x.all(balancesOf, { ids: idListParam(x.dialect, playerIds) })) {
        const balances = byPlayer.get(row.playerId);
        if (balances) balances[row.currency] = row.balanceMinor;
      }
      return byPlayer;
    },
  };
}
