// sqlite-only: it runs SQLite's migration 024, which rebuilds webhook_events (PostgreSQL's 021 drops a NOT NULL in place)
import { describe, expect, it } from 'vitest';
import { migrate } from '../src/store/sqlite/database.ts';
import { seedGame, sqliteBefore } from './sqlite-before-migration.ts';

const NOW = '2026-03-01T12:00:00.000Z';

describe('migration 024 (the anchor webhook event: an outbox event with no round)', () => {
  it('keeps every event with its seq and the seq counter, and then takes an event with no round', () => {
    const db = sqliteBefore('024', NOW);
    seedGame(db, NOW); // client 'c', profile 'pr', game 'g' (USD)
    db.exec(`
      INSERT INTO players (id, client_id, profile_id, credential, credential_type, created_at)
        VALUES ('p1', 'c', 'pr', 'ana', 'username', '${NOW}');
      INSERT INTO game_sessions (id, client_id, profile_id, player_id, game_id, token_hash, lang, expire_at, created_at)
        VALUES ('s', 'c', 'pr', 'p1', 'g', 't', 'en', '${NOW}', '${NOW}');
      INSERT INTO rounds (id, client_id, profile_id, game_id, player_id, session_id, status, currency, paid_minor,
        prize_minor, created_at) VALUES ('r', 'c', 'pr', 'g', 'p1', 's', 'closed', 'USD', 200, 0, '${NOW}');
      INSERT INTO webhooks (id, client_id, url, event_triggers, token_enc, status, created_at)
        VALUES ('w', 'c', 'https://hooks.example/x', '["open-round","close-round"]', 'sealed', 'active', '${NOW}');
      INSERT INTO webhook_events (id, webhook_id, round_id, event_type, payload, status, attempts, next_attempt_at,
        created_at) VALUES
        ('e1', 'w', 'r', 'open-round', '{}', 'delivered', 1, '${NOW}', '${NOW}'),
        ('e2', 'w', 'r', 'close-round', '{}', 'queued', 2, '${NOW}', '${NOW}'),
        ('e3', 'w', 'r', 'close-round', '{}', 'queued', 0, '${NOW}', '${NOW}');
      DELETE FROM webhook_events WHERE id = 'e3';
    `);
    const rows = () => db.prepare('SELECT * FROM webhook_events ORDER BY seq').all();
    const before = rows();

    expect(migrate(db)).toContain('024_anchor_webhook_event.sql');

    expect(rows()).toEqual(before);
    // The counter is carried over: seq 3 (deleted) is never taken again.
    db.exec(`INSERT INTO webhook_events (id, webhook_id, round_id, event_type, payload, status, attempts,
      next_attempt_at, created_at) VALUES ('a1', 'w', NULL, 'anchor', '{}', 'queued', 0, '${NOW}', '${NOW}')`);
    expect(db.prepare("SELECT seq, round_id AS roundId FROM webhook_events WHERE id = 'a1'").get()).toEqual({
      seq: 4,
      roundId: null,
    });
    const indexes = db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'webhook_events' AND sql IS NOT NULL",
      )
      .all();
    expect(indexes.map((index) => (index as { name: string }).name).sort()).toEqual([
      'webhook_events_by_round',
      'webhook_events_queue',
    ]);
    expect(db.pragma('foreign_key_check')).toEqual([]);
  });
});
