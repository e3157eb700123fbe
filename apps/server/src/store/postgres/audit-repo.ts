import type { AuditRecord } from '../records.ts';
import type { AuditRepo } from '../repositories.ts';
import { all, first, type Sql } from './sql.ts';

const AUDIT_COLUMNS = 'id, client_id AS "clientId", actor, operation, target_id AS "targetId", ip, at';

export function createAuditRepo(sql: Sql): AuditRepo {
  return {
    insert: async (e) =>
      void (await sql.query(
        `INSERT INTO audit_log (id, client_id, actor, operation, target_id, ip, at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [e.id, e.clientId, e.actor, e.operation, e.targetId, e.ip, e.at],
      )),
    listByClient: async (clientId, { pageIndex, pageSize }) => ({
      items: await all<AuditRecord>(
        sql,
        `SELECT ${AUDIT_COLUMNS} FROM audit_log WHERE client_id = $1 ORDER BY at DESC, id DESC LIMIT $2 OFFSET $3`,
        [clientId, pageSize, (pageIndex - 1) * pageSize],
      ),
      totalCount:
        (
          await first<{ n: number }>(sql, 'SELECT count(*) AS n FROM audit_log WHERE client_id = $1', [
            clientId,
          ])
        )?.n ?? 0,
    }),
  };
}
