import type { ProfileRecord } from '../records.ts';
import type { ProfilesRepo } from '../repositories.ts';
import { all, first, type Sql } from './sql.ts';

interface ProfileRow extends Omit<ProfileRecord, 'allowedOrigins' | 'currencies'> {
  allowedOrigins: string;
  currencies: string | null;
}

const COLUMNS = `id, client_id AS "clientId", name, type, currency, currencies, wallet_url AS "walletUrl",
  wallet_token_enc AS "walletTokenSealed", allowed_origins AS "allowedOrigins", created_at AS "createdAt",
  updated_at AS "updatedAt"`;

const fromRow = (row: ProfileRow): ProfileRecord => ({
  ...row,
  allowedOrigins: JSON.parse(row.allowedOrigins),
  currencies: row.currencies === null ? null : JSON.parse(row.currencies),
});
/** The columns update() may change, in order ($2…$9), after the id ($1). */
const changeable = (p: ProfileRecord) => [
  p.name,
  p.type,
  p.currency,
  p.currencies === null ? null : JSON.stringify(p.currencies),
  p.walletUrl,
  p.walletTokenSealed,
  JSON.stringify(p.allowedOrigins),
  p.updatedAt,
];

export function createProfilesRepo(sql: Sql): ProfilesRepo {
  return {
    insert: async (profile) =>
      void (await sql.query(
        `INSERT INTO profiles (id, name, type, currency, currencies, wallet_url, wallet_token_enc,
          allowed_origins, updated_at, client_id, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [profile.id, ...changeable(profile), profile.clientId, profile.createdAt],
      )),
    update: async (p) =>
      void (await sql.query(
        `UPDATE profiles SET name = $2, type = $3, currency = $4, currencies = $5, wallet_url = $6,
          wallet_token_enc = $7, allowed_origins = $8, updated_at = $9 WHERE id = $1`,
        [p.id, ...changeable(p)],
      )),
    findById: async (id) => {
      const row = await first<ProfileRow>(sql, `SELECT ${COLUMNS} FROM profiles WHERE id = $1`, [id]);
      return row && fromRow(row);
    },
    listByClient: async (clientId, page) => ({
      items: (
        await all<ProfileRow>(
          sql,
          `SELECT ${COLUMNS} FROM profiles WHERE client_id = $1 ORDER BY created_at, id LIMIT $2 OFFSET $3`,
          [clientId, page.pageSize, (page.pageIndex - 1) * page.pageSize],
        )
      ).map(fromRow),
      totalCount:
        (
          await first<{ n: number }>(sql, 'SELECT count(*) AS n FROM profiles WHERE client_id = $1', [
            clientId,
          ])
        )?.n ?? 0,
    }),
  };
}
