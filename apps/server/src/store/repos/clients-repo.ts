import type { Exec } from '../dialect/exec.ts';
import { statement } from '../dialect/statement.ts';
import type { ApiClientRecord, TokenSetRecord } from '../records.ts';
import type { ClientsRepo } from '../repositories.ts';

const CLIENT_COLUMNS =
  'id, name, email, api_key_hash AS "apiKeyHash", password_hash AS "passwordHash", lang, created_at AS "createdAt"';
const TOKEN_COLUMNS =
  'id, client_id AS "clientId", access_hash AS "accessHash", expire_at AS "expireAt", revoked_at AS "revokedAt", created_at AS "createdAt", via';

const insertClient = statement<ApiClientRecord>(
  `INSERT INTO api_clients (id, name, email, api_key_hash, password_hash, lang, created_at)
   VALUES (:id, :name, :email, :apiKeyHash, :passwordHash, :lang, :createdAt)`,
);
const byId = statement<{ id: string }, ApiClientRecord>(
  `SELECT ${CLIENT_COLUMNS} FROM api_clients WHERE id = :id`,
);
const byKey = statement<{ hash: string }, ApiClientRecord>(
  `SELECT ${CLIENT_COLUMNS} FROM api_clients WHERE api_key_hash = :hash`,
);
/**
 * ASCII case ignored: SQLite's column is NOCASE (and so its unique index), PostgreSQL's unique
 * index is on lower(email).
 */
const byEmail = statement<{ email: string }, ApiClientRecord>(
  (d) =>
    `SELECT ${CLIENT_COLUMNS} FROM api_clients WHERE ${d === 'sqlite' ? 'email = :email' : 'lower(email) = lower(:email)'}`,
);
const count = statement<Record<string, never>, { n: number }>('SELECT count(*) AS n FROM api_clients');
const setPassword = statement<{ clientId: string; passwordHash: string }>(
  'UPDATE api_clients SET password_hash = :passwordHash WHERE id = :clientId',
);
const setApiKey = statement<{ clientId: string; apiKeyHash: string }>(
  'UPDATE api_clients SET api_key_hash = :apiKeyHash WHERE id = :clientId',
);
const insertToken = statement<TokenSetRecord>(
  `INSERT INTO token_sets (id, client_id, access_hash, expire_at, revoked_at, created_at, via)
   VALUES (:id, :clientId, :accessHash, :expireAt, :revokedAt, :createdAt, :via)`,
);
const liveToken = statement<{ accessHash: string; now: string }, TokenSetRecord>(
  `SELECT ${TOKEN_COLUMNS} FROM token_sets WHERE access_hash = :accessHash AND revoked_at IS NULL AND expire_at > :now`,
);
const revokeOne = statement<{ id: string; now: string }>(
  'UPDATE token_sets SET revoked_at = :now WHERE id = :id AND revoked_at IS NULL',
);
const revokeAll = statement<{ clientId: string; now: string }>(
  'UPDATE token_sets SET revoked_at = :now WHERE client_id = :clientId AND revoked_at IS NULL',
);
const revokeVia = statement<{ clientId: string; now: string; via: string }>(
  'UPDATE token_sets SET revoked_at = :now WHERE client_id = :clientId AND via = :via AND revoked_at IS NULL',
);

export function createClientsRepo(x: Exec): ClientsRepo {
  return {
    insertClient: async (client) => void (await x.run(insertClient, client)),
    findClientById: async (id) => x.first(byId, { id }),
    findClientByApiKeyHash: async (hash) => x.first(byKey, { hash }),
    findClientByEmail: async (email) => x.first(byEmail, { email }),
    countClients: async () => (await x.first(count, {}))?.n ?? 0,
    setPasswordHash: async (clientId, passwordHash) =>
      void (await x.run(setPassword, { clientId, passwordHash })),
    setApiKeyHash: async (clientId, apiKeyHash) => void (await x.run(setApiKey, { clientId, apiKeyHash })),
    insertTokenSet: async (tokenSet) => void (await x.run(insertToken, tokenSet)),
    findLiveTokenSet: async (accessHash, now) => x.first(liveToken, { accessHash, now }),
    revokeTokenSet: async (id, now) => (await x.run(revokeOne, { id, now })) === 1,
    revokeTokenSets: async (clientId, now, via) =>
      via === undefined ? x.run(revokeAll, { clientId, now }) : x.run(revokeVia, { clientId, now, via }),
  };
}
