import type { AuditRecord } from '../records.ts';
import type { AuditRepo } from '../repositories.ts';
import type { Db } from './database.ts';
import type { Sync } from './sync.ts';

const AUDIT_COLUMNS = 'id, client_id AS clientId, actor, operation, target_id AS targetId, ip, at';

export function createAuditRepo(db: Db): Sync<AuditRepo> {
  const insert = db.prepare(`INSERT INTO audit_log (id, client_id, actor, operation, target_id, ip, at)
    VALUES (@id, @clientId, @actor, @operation, @targetId, @ip, @at)`);
  const page = db.prepare<[string, number, number], AuditRecord>(
    `SELECT ${AUDIT_COLUMNS} FROM audit_log WHERE client_id = ? ORDER BY at DESC, id DESC LIMIT ? OFFSET ?`,
  );
  const count = db.prepare<[string], { n: number }>(
    'SELECT count(*) AS n FROM audit_log WHERE client_id = ?',
  );
  return {
    insert: (entry) => void insert.run(entry),
    listByClient: (clientId, { pageIndex, pageSize }) => ({
      items: page.all(clientId, pageSize, (pageIndex - 1) * pageSize),
      totalCount: count.get(clientId)?.n ?? 0,
    }),
  };
}
