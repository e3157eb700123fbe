// sqlite-only: migration 005 on a SQLite file's schema, before and after
import { describe, expect, it } from 'vitest';
import { migrate } from '../src/store/sqlite/database.ts';
import { seedGame, sqliteBefore } from './sqlite-before-migration.ts';

const NOW = '2026-03-01T12:00:00.000Z';

describe('migration 005_multi_currency (SQLite-specific: its schema before and after)', () => {
  it('keeps every profile open to any currency, moves balances to per-currency rows, and pairs voided bets', () => {
    const db = sqliteBefore('005', NOW);
    seedGame(db, NOW); // client 'c', profile 'pr', game 'g' (USD)
    db.exec(`
      INSERT INTO players (id, client_id, profile_id, credential, credential_type, balance_minor, created_at)
        VALUES ('p', 'c', 'pr', 'ana', 'username', 4200, '${NOW}');
      INSERT INTO game_sessions (id, client_id, profile_id, player_id, game_id, token_hash, lang, expire_at, created_at)
        VALUES ('s', 'c', 'pr', 'p', 'g', 't', 'en', '${NOW}', '${NOW}');
      INSERT INTO demo_wallet_accounts (player_id, balance_minor) VALUES ('p', 99800);
      INSERT INTO rounds (id, client_id, profile_id, game_id, player_id, session_id, status, currency, paid_minor,
        created_at) VALUES ('r1', 'c', 'pr', 'g', 'p', 's', 'voided', 'USD', 200, '${NOW}'),
        ('r2', 'c', 'pr', 'g', 'p', 's', 'voided', 'USD', 200, '${NOW}');
      INSERT INTO transactions (id, round_id, client_id, profile_id, player_id, type, amount_minor, currency, status,
        created_at, original_transaction_id, completed_at) VALUES
        ('b1', 'r1', 'c', 'pr', 'p', 'bet', -200, 'USD', 'failed', '${NOW}', NULL, NULL),
        ('rb1', 'r1', 'c', 'pr', 'p', 'rollback', 200, 'USD', 'completed', '${NOW}', 'b1', '${NOW}'),
        ('b2', 'r2', 'c', 'pr', 'p', 'bet', -200, 'USD', 'failed', '${NOW}', NULL, NULL),
        ('rb2', 'r2', 'c', 'pr', 'p', 'rollback', 200, 'USD', 'declined', '${NOW}', 'b2', NULL);
    `);

    expect(migrate(db)).toContain('005_multi_currency.sql');

    expect(db.prepare('SELECT currency, currencies FROM profiles').get()).toEqual({
      currency: 'USD',
      currencies: null,
    });
    expect(db.prepare('SELECT player_id, currency, balance_minor FROM player_balances').all()).toEqual([
      { player_id: 'p', currency: 'USD', balance_minor: 4200 },
    ]);
    expect(db.prepare('SELECT player_id, currency, balance_minor FROM demo_wallet_accounts').all()).toEqual([
      { player_id: 'p', currency: 'USD', balance_minor: 99800 },
    ]);
    // The confirmed pair now nets to zero among the completed; the declined rollback's bet stays out.
    expect(db.prepare('SELECT id, status, completed_at FROM transactions ORDER BY id').all()).toEqual([
      { id: 'b1', status: 'completed', completed_at: NOW },
      { id: 'b2', status: 'failed', completed_at: null },
      { id: 'rb1', status: 'completed', completed_at: NOW },
      { id: 'rb2', status: 'declined', completed_at: null },
    ]);
    db.close();
  });
});
