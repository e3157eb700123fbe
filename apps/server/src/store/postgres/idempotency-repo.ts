import type { IdempotencyRecord } from '../records.ts';
import type { IdempotencyRepo } from '../repositories.ts';
import { changes, first, type Sql } from './sql.ts';

const COLUMNS = `client_id AS "clientId", idem_key AS key, fingerprint, state, response_status AS "responseStatus",
  response_body AS "responseBody", created_at AS "createdAt", expires_at AS "expiresAt", completed_at AS "completedAt"`;

export function createIdempotencyRepo(sql: Sql): IdempotencyRepo {
  return {
    deleteExpired: (now) => changes(sql, 'DELETE FROM idempotency_keys WHERE expires_at <= $1', [now]),
    insertClaim: async (claim) =>
      (await changes(
        sql,
        `INSERT INTO idempotency_keys (client_id, idem_key, fingerprint, state, created_at, expires_at)
         VALUES ($1, $2, $3, 'in_progress', $4, $5) ON CONFLICT (client_id, idem_key) DO NOTHING`,
        [claim.clientId, claim.key, claim.fingerprint, claim.createdAt, claim.expiresAt],
      )) === 1,
    find: (clientId, key) =>
      first<IdempotencyRecord>(
        sql,
        `SELECT ${COLUMNS} FROM idempotency_keys WHERE client_id = $1 AND idem_key = $2`,
        [clientId, key],
      ),
    complete: async (clientId, key, answer) =>
      (await changes(
        sql,
        `UPDATE idempotency_keys SET state = 'completed', response_status = $1, response_body = $2, completed_at = $3
         WHERE client_id = $4 AND idem_key = $5 AND state = 'in_progress'`,
        [answer.status, answer.body, answer.completedAt, clientId, key],
      )) === 1,
    release: async (clientId, key) =>
      (await changes(
        sql,
        "DELETE FROM idempotency_keys WHERE client_id = $1 AND idem_key = $2 AND state = 'in_progress'",
        [clientId, key],
      )) === 1,
  };
}
