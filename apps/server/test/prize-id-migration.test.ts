// sqlite-only: it runs the SQLite migrations from the schema before 013 (PostgreSQL 010 does the same update, tested in round-budget)
import { describe, expect, it } from 'vitest';
import { migrate } from '../src/store/sqlite/database.ts';
import { seedGame, sqliteBefore } from './sqlite-before-migration.ts';

const NOW = '2026-03-01T12:00:00.000Z';

describe('migrations 013 and 014 (SQLite-specific: the rounds a version before cut 6 left live)', () => {
  it('fix the prize id of every live won round: an open one gets <round id>.prize, a closing one its pending prize’s', () => {
    const db = sqliteBefore('013', NOW);
    seedGame(db, NOW); // client 'c', profile 'pr', game 'g' (USD)
    db.exec(`
      INSERT INTO players (id, client_id, profile_id, credential, credential_type, created_at)
        VALUES ('p1', 'c', 'pr', 'ana', 'username', '${NOW}'), ('p2', 'c', 'pr', 'bia', 'username', '${NOW}'),
        ('p3', 'c', 'pr', 'cai', 'username', '${NOW}');
      INSERT INTO game_sessions (id, client_id, profile_id, player_id, game_id, token_hash, lang, expire_at, created_at)
        VALUES ('s', 'c', 'pr', 'p1', 'g', 't', 'en', '${NOW}', '${NOW}');
      INSERT INTO rounds (id, client_id, profile_id, game_id, player_id, session_id, status, currency, paid_minor,
        prize_minor, created_at) VALUES
        ('won-open', 'c', 'pr', 'g', 'p1', 's', 'open', 'USD', 200, 500, '${NOW}'),
        ('won-closing', 'c', 'pr', 'g', 'p2', 's', 'closing', 'USD', 200, 500, '${NOW}'),
        ('lost-open', 'c', 'pr', 'g', 'p3', 's', 'open', 'USD', 200, 0, '${NOW}');
      INSERT INTO transactions (id, round_id, client_id, profile_id, player_id, type, amount_minor, currency, status,
        created_at) VALUES
        ('old-prize', 'won-closing', 'c', 'pr', 'p2', 'prize', 500, 'USD', 'pending', '${NOW}');
    `);

    expect(migrate(db)).toEqual(
      expect.arrayContaining(['013_round_prize_id.sql', '014_closing_prize_id.sql']),
    );

    expect(db.prepare('SELECT id, prize_transaction_id AS fixed FROM rounds ORDER BY id').all()).toEqual([
      { id: 'lost-open', fixed: null },
      { id: 'won-closing', fixed: 'old-prize' },
      { id: 'won-open', fixed: 'won-open.prize' },
    ]);
  });
});
