import type { Exec } from '../dialect/exec.ts';
import { statement } from '../dialect/statement.ts';
import type { IdempotencyRecord } from '../records.ts';
import type { IdempotencyRepo } from '../repositories.ts';

const COLUMNS = `client_id AS "clientId", idem_key AS key, fingerprint, state, response_status AS "responseStatus",
  response_body AS "responseBody", created_at AS "createdAt", expires_at AS "expiresAt", completed_at AS "completedAt"`;

const deleteExpired = statement<{ now: string }>('DELETE FROM idempotency_keys WHERE expires_at <= :now');
const insertClaim = statement<{
  clientId: string;
  key: string;
  fingerprint: string;
  createdAt: string;
  expiresAt: string;
}>(
  `INSERT INTO idempotency_keys (client_id, idem_key, fingerprint, state, created_at, expires_at)
   VALUES (:clientId, :key, :fingerprint, 'in_progress', :createdAt, :expiresAt)
   ON CONFLICT (client_id, idem_key) DO NOTHING`,
);
const find = statement<{ clientId: string; key: string }, IdempotencyRecord>(
  `SELECT ${COLUMNS} FROM idempotency_keys WHERE client_id = :clientId AND idem_key = :key`,
);
const complete = statement<{
  clientId: string;
  key: string;
  status: number;
  body: string;
  completedAt: string;
}>(
  `UPDATE idempotency_keys SET state = 'completed', response_status = :status, response_body = :body,
   completed_at = :completedAt WHERE client_id = :clientId AND idem_key = :key AND state = 'in_progress'`,
);
const release = statement<{ clientId: string; key: string }>(
  "DELETE FROM idempotency_keys WHERE client_id = :clientId AND idem_key = :key AND state = 'in_progress'",
);

export function createIdempotencyRepo(x: Exec): IdempotencyRepo {
  return {
    deleteExpired: async (now) => x.run(deleteExpired, { now }),
    insertClaim: async (claim) => (await x.run(insertClaim, claim)) === 1,
    find: async (clientId, key) => x.first(find, { clientId, key }),
    complete: async (clientId, key, answer) =>
      (await x.run(complete, {
        clientId,
        key,
        status: answer.status,
        body: answer.body,
        completedAt: answer.completedAt,
      })) === 1,
    release: async (clientId, key) => (await x.run(release, { clientId, key })) === 1,
  };
}
