import type { Exec } from '../dialect/exec.ts';
import { statement } from '../dialect/statement.ts';
import type { ProfileRecord } from '../records.ts';
import type { ProfilesRepo } from '../repositories.ts';

/** The JSON columns as stored: text. */
interface ProfileRow extends Omit<ProfileRecord, 'allowedOrigins' | 'currencies'> {
  allowedOrigins: string;
  currencies: string | null;
}

const COLUMNS = `id, client_id AS "clientId", name, type, currency, currencies, wallet_url AS "walletUrl",
  wallet_token_enc AS "walletTokenSealed", allowed_origins AS "allowedOrigins", jurisdiction, timezone,
  reality_check_minutes AS "realityCheckMinutes", responsible_gaming_url AS "responsibleGamingUrl",
  created_at AS "createdAt", updated_at AS "updatedAt"`;

const fromRow = (row: ProfileRow): ProfileRecord => ({
  ...row,
  allowedOrigins: JSON.parse(row.allowedOrigins),
  currencies: row.currencies === null ? null : JSON.parse(row.currencies),
});
const toRow = (profile: ProfileRecord): ProfileRow => ({
  ...profile,
  allowedOrigins: JSON.stringify(profile.allowedOrigins),
  currencies: profile.currencies === null ? null : JSON.stringify(profile.currencies),
});

const insert = statement<ProfileRow>(`INSERT INTO profiles (id, client_id, name, type, currency, currencies,
  wallet_url, wallet_token_enc, allowed_origins, jurisdiction, timezone, reality_check_minutes,
  responsible_gaming_url, created_at, updated_at) VALUES (:id, :clientId, :name, :type, :currency, :currencies,
  :walletUrl, :walletTokenSealed, :allowedOrigins, :jurisdiction, :timezone, :realityCheckMinutes,
  :responsibleGamingUrl, :createdAt, :updatedAt)`);
const update = statement<ProfileRow>(`UPDATE profiles SET name = :name, type = :type, currency = :currency,
  currencies = :currencies, wallet_url = :walletUrl, wallet_token_enc = :walletTokenSealed,
  allowed_origins = :allowedOrigins, jurisdiction = :jurisdiction, timezone = :timezone,
  reality_check_minutes = :realityCheckMinutes, responsible_gaming_url = :responsibleGamingUrl,
  updated_at = :updatedAt WHERE id = :id`);
const byId = statement<{ id: string }, ProfileRow>(`SELECT ${COLUMNS} FROM profiles WHERE id = :id`);
const list = statement<{ clientId: string; limit: number; offset: number }, ProfileRow>(
  `SELECT ${COLUMNS} FROM profiles WHERE client_id = :clientId ORDER BY created_at, id LIMIT :limit OFFSET :offset`,
);
const count = statement<{ clientId: string }, { n: number }>(
  'SELECT count(*) AS n FROM profiles WHERE client_id = :clientId',
);

export function createProfilesRepo(x: Exec): ProfilesRepo {
  return {
    insert: async (profile) => void (await x.run(insert, toRow(profile))),
    update: async (profile) => void (await x.run(update, toRow(profile))),
    findById: async (id) => {
      const row = await x.first(byId, { id });
      return row && fromRow(row);
    },
    listByClient: async (clientId, page) => {
      const offset = (page.pageIndex - 1) * page.pageSize;
      return {
        items: (await x.all(list, { clientId, limit: page.pageSize, offset })).map(fromRow),
        totalCount: (await x.first(count, { clientId }))?.n ?? 0,
      };
    },
  };
}
