import type { Exec } from '../dialect/exec.ts';
import { statement } from '../dialect/statement.ts';
import type { AuditRecord } from '../records.ts';
import type { AuditRepo } from '../repositories.ts';

const COLUMNS = 'id, client_id AS "clientId", actor, operation, target_id AS "targetId", ip, at';

const insert =
  statement<AuditRecord>(`INSERT INTO audit_log (id, client_id, actor, operation, target_id, ip, at)
  VALUES (:id, :clientId, :actor, :operation, :targetId, :ip, :at)`);
const page = statement<{ clientId: string; limit: number; offset: number }, AuditRecord>(
  `SELECT ${COLUMNS} FROM audit_log WHERE client_id = :clientId ORDER BY at DESC, id DESC LIMIT :limit OFFSET :offset`,
);
const count = statement<{ clientId: string }, { n: number }>(
  'SELECT count(*) AS n FROM audit_log WHERE client_id = :clientId',
);

export function createAuditRepo(x: Exec): AuditRepo {
  return {
    insert: async (entry) => void (await x.run(insert, entry)),
    listByClient: async (clientId, { pageIndex, pageSize }) => ({
      items: await x.all(page, { clientId, limit: pageSize, offset: (pageIndex - 1) * pageSize }),
      totalCount: (await x.first(count, { clientId }))?.n ?? 0,
    }),
  };
}
