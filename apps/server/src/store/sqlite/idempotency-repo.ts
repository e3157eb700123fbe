import type { IdempotencyRecord } from '../records.ts';
import type { IdempotencyRepo } from '../repositories.ts';
import type { Db } from './database.ts';
import type { Sync } from './sync.ts';

const COLUMNS =
  'client_id AS clientId, idem_key AS key, fingerprint, state, response_status AS responseStatus, ' +
  'response_body AS responseBody, created_at AS createdAt, expires_at AS expiresAt, completed_at AS completedAt';

export function createIdempotencyRepo(db: Db): Sync<IdempotencyRepo> {
  const deleteExpired = db.prepare('DELETE FROM idempotency_keys WHERE expires_at <= ?');
  const insertClaim = db.prepare(
    `INSERT INTO idempotency_keys (client_id, idem_key, fingerprint, state, created_at, expires_at)
     VALUES (@clientId, @key, @fingerprint, 'in_progress', @createdAt, @expiresAt)
     ON CONFLICT (client_id, idem_key) DO NOTHING`,
  );
  const find = db.prepare<[string, string], IdempotencyRecord>(
    `SELECT ${COLUMNS} FROM idempotency_keys WHERE client_id = ? AND idem_key = ?`,
  );
  const complete = db.prepare(
    `UPDATE idempotency_keys SET state = 'completed', response_status = ?, response_body = ?, completed_at = ?
     WHERE client_id = ? AND idem_key = ? AND state = 'in_progress'`,
  );
  const release = db.prepare(
    "DELETE FROM idempotency_keys WHERE client_id = ? AND idem_key = ? AND state = 'in_progress'",
  );
  return {
    deleteExpired: (now) => deleteExpired.run(now).changes,
    insertClaim: (claim) => insertClaim.run(claim).changes === 1,
    find: (clientId, key) => find.get(clientId, key),
    complete: (clientId, key, answer) =>
      complete.run(answer.status, answer.body, answer.completedAt, clientId, key).changes === 1,
    release: (clientId, key) => release.run(clientId, key).changes === 1,
  };
}
