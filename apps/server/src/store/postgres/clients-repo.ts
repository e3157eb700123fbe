import type { ApiClientRecord, TokenSetRecord } from '../records.ts';
import type { ClientsRepo } from '../repositories.ts';
import { changes, first, type Sql } from './sql.ts';

const CLIENT_COLUMNS =
  'id, name, email, api_key_hash AS "apiKeyHash", password_hash AS "passwordHash", lang, created_at AS "createdAt"';
const TOKEN_COLUMNS =
  'id, client_id AS "clientId", access_hash AS "accessHash", expire_at AS "expireAt", revoked_at AS "revokedAt", created_at AS "createdAt", via';

export function createClientsRepo(sql: Sql): ClientsRepo {
  return {
    insertClient: async (c) =>
      void (await sql.query(
        'INSERT INTO api_clients (id, name, email, api_key_hash, password_hash, lang, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
        [c.id, c.name, c.email, c.apiKeyHash, c.passwordHash, c.lang, c.createdAt],
      )),
    findClientById: (id) =>
      first<ApiClientRecord>(sql, `SELECT ${CLIENT_COLUMNS} FROM api_clients WHERE id = $1`, [id]),
    findClientByApiKeyHash: (hash) =>
      first<ApiClientRecord>(sql, `SELECT ${CLIENT_COLUMNS} FROM api_clients WHERE api_key_hash = $1`, [
        hash,
      ]),
    // ASCII case ignored, as SQLite's NOCASE (the unique index is on lower(email)).
    findClientByEmail: (email) =>
      first<ApiClientRecord>(
        sql,
        `SELECT ${CLIENT_COLUMNS} FROM api_clients WHERE lower(email) = lower($1)`,
        [email],
      ),
    countClients: async () =>
      (await first<{ n: number }>(sql, 'SELECT count(*) AS n FROM api_clients'))?.n ?? 0,
    setPasswordHash: async (clientId, passwordHash) =>
      void (await sql.query('UPDATE api_clients SET password_hash = $1 WHERE id = $2', [
        passwordHash,
        clientId,
      ])),
    setApiKeyHash: async (clientId, apiKeyHash) =>
      void (await sql.query('UPDATE api_clients SET api_key_hash = $1 WHERE id = $2', [
        apiKeyHash,
        clientId,
      ])),
    insertTokenSet: async (t) =>
      void (await sql.query(
        'INSERT INTO token_sets (id, client_id, access_hash, expire_at, revoked_at, created_at, via) VALUES ($1, $2, $3, $4, $5, $6, $7)',
        [t.id, t.clientId, t.accessHash, t.expireAt, t.revokedAt, t.createdAt, t.via],
      )),
    findLiveTokenSet: (accessHash, now) =>
      first<TokenSetRecord>(
        sql,
        `SELECT ${TOKEN_COLUMNS} FROM token_sets WHERE access_hash = $1 AND revoked_at IS NULL AND expire_at > $2`,
        [accessHash, now],
      ),
    revokeTokenSet: async (id, now) =>
      (await changes(sql, 'UPDATE token_sets SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [
        now,
        id,
      ])) === 1,
    revokeTokenSets: (clientId, now, via) =>
      via === undefined
        ? changes(sql, 'UPDATE token_sets SET revoked_at = $1 WHERE client_id = $2 AND revoked_at IS NULL', [
            now,
            clientId,
          ])
        : changes(
            sql,
            'UPDATE token_sets SET revoked_at = $1 WHERE client_id = $2 AND via = $3 AND revoked_at IS NULL',
            [now, clientId, via],
          ),
  };
}
