import type { ApiClientRecord, TokenSetRecord } from '../records.ts';
import type { ClientsRepo } from '../repositories.ts';
import type { Db } from './database.ts';
import type { Sync } from './sync.ts';

const CLIENT_COLUMNS =
  'id, name, email, api_key_hash AS apiKeyHash, password_hash AS passwordHash, lang, created_at AS createdAt';
const TOKEN_COLUMNS =
  'id, client_id AS clientId, access_hash AS accessHash, expire_at AS expireAt, revoked_at AS revokedAt, created_at AS createdAt, via';

export function createClientsRepo(db: Db): Sync<ClientsRepo> {
  const insertClient = db.prepare(
    'INSERT INTO api_clients (id, name, email, api_key_hash, password_hash, lang, created_at) VALUES (@id, @name, @email, @apiKeyHash, @passwordHash, @lang, @createdAt)',
  );
  const byId = db.prepare<[string], ApiClientRecord>(
    `SELECT ${CLIENT_COLUMNS} FROM api_clients WHERE id = ?`,
  );
  const byKey = db.prepare<[string], ApiClientRecord>(
    `SELECT ${CLIENT_COLUMNS} FROM api_clients WHERE api_key_hash = ?`,
  );
  const byEmail = db.prepare<[string], ApiClientRecord>(
    `SELECT ${CLIENT_COLUMNS} FROM api_clients WHERE email = ?`,
  );
  const count = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM api_clients');
  const setPassword = db.prepare('UPDATE api_clients SET password_hash = ? WHERE id = ?');
  const setApiKey = db.prepare('UPDATE api_clients SET api_key_hash = ? WHERE id = ?');
  const insertToken = db.prepare(
    'INSERT INTO token_sets (id, client_id, access_hash, expire_at, revoked_at, created_at, via) VALUES (@id, @clientId, @accessHash, @expireAt, @revokedAt, @createdAt, @via)',
  );
  const liveToken = db.prepare<[string, string], TokenSetRecord>(
    `SELECT ${TOKEN_COLUMNS} FROM token_sets WHERE access_hash = ? AND revoked_at IS NULL AND expire_at > ?`,
  );
  const revokeOne = db.prepare('UPDATE token_sets SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL');
  const revoke = db.prepare(
    'UPDATE token_sets SET revoked_at = ? WHERE client_id = ? AND revoked_at IS NULL',
  );
  const revokeVia = db.prepare(
    'UPDATE token_sets SET revoked_at = ? WHERE client_id = ? AND via = ? AND revoked_at IS NULL',
  );
  return {
    insertClient: (client) => void insertClient.run(client),
    findClientById: (id) => byId.get(id),
    findClientByApiKeyHash: (hash) => byKey.get(hash),
    findClientByEmail: (email) => byEmail.get(email),
    countClients: () => count.get()?.n ?? 0,
    setPasswordHash: (clientId, passwordHash) => void setPassword.run(passwordHash, clientId),
    insertTokenSet: (tokenSet) => void insertToken.run(tokenSet),
    findLiveTokenSet: (accessHash, now) => liveToken.get(accessHash, now),
    setApiKeyHash: (clientId, apiKeyHash) => void setApiKey.run(apiKeyHash, clientId),
    revokeTokenSet: (id, now) => revokeOne.run(now, id).changes === 1,
    revokeTokenSets: (clientId, now, via) =>
      (via === undefined ? revoke.run(now, clientId) : revokeVia.run(now, clientId, via)).changes,
  };
}
