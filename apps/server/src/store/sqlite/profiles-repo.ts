import type { ProfileRecord } from '../records.ts';
import type { ProfilesRepo } from '../repositories.ts';
import type { Db } from './database.ts';
import type { Sync } from './sync.ts';

interface ProfileRow extends Omit<ProfileRecord, 'allowedOrigins' | 'currencies'> {
  allowedOrigins: string;
  currencies: string | null;
}

const COLUMNS = `id, client_id AS clientId, name, type, currency, currencies, wallet_url AS walletUrl,
  wallet_token_enc AS walletTokenSealed, allowed_origins AS allowedOrigins, created_at AS createdAt, updated_at AS updatedAt`;

const fromRow = (row: ProfileRow): ProfileRecord => ({
  ...row,
  allowedOrigins: JSON.parse(row.allowedOrigins),
  currencies: row.currencies === null ? null : JSON.parse(row.currencies),
});
const toRow = (profile: ProfileRecord) => ({
  ...profile,
  allowedOrigins: JSON.stringify(profile.allowedOrigins),
  currencies: profile.currencies === null ? null : JSON.stringify(profile.currencies),
});

export function createProfilesRepo(db: Db): Sync<ProfilesRepo> {
  const insert =
    db.prepare(`INSERT INTO profiles (id, client_id, name, type, currency, currencies, wallet_url, wallet_token_enc,
    allowed_origins, created_at, updated_at) VALUES (@id, @clientId, @name, @type, @currency, @currencies, @walletUrl,
    @walletTokenSealed, @allowedOrigins, @createdAt, @updatedAt)`);
  const update = db.prepare(`UPDATE profiles SET name = @name, type = @type, currency = @currency,
    currencies = @currencies,
    wallet_url = @walletUrl, wallet_token_enc = @walletTokenSealed, allowed_origins = @allowedOrigins,
    updated_at = @updatedAt WHERE id = @id`);
  const byId = db.prepare<[string], ProfileRow>(`SELECT ${COLUMNS} FROM profiles WHERE id = ?`);
  const list = db.prepare<[string, number, number], ProfileRow>(
    `SELECT ${COLUMNS} FROM profiles WHERE client_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?`,
  );
  const count = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM profiles WHERE client_id = ?');
  return {
    insert: (profile) => void insert.run(toRow(profile)),
    update: (profile) => void update.run(toRow(profile)),
    findById: (id) => {
      const row = byId.get(id);
      return row && fromRow(row);
    },
    listByClient: (clientId, page) => ({
      items: list.all(clientId, page.pageSize, (page.pageIndex - 1) * page.pageSize).map(fromRow),
      totalCount: count.get(clientId)?.n ?? 0,
    }),
  };
}
