-- The `anchor` webhook event (issue 37, docs/audit.md): an outbox event with no round, so
-- webhook_events.round_id may be NULL (an anchor event's). PostgreSQL: 021.
-- SQLite cannot drop a NOT NULL constraint in place, so the table is rebuilt: the same columns in
-- the same order, every row copied with its seq (the order each webhook receives its events in),
-- the AUTOINCREMENT counter carried over so no seq is ever taken twice, and the indexes made
-- again. The foreign key to rounds stays: a NULL passes it. Nothing references webhook_events, so
-- the drop deletes nothing else. It copies every event once (on a large outbox, a longer start).
CREATE TABLE webhook_events_rebuilt (
  seq              INTEGER PRIMARY KEY AUTOINCREMENT,
  id               TEXT NOT NULL UNIQUE,
  webhook_id       TEXT NOT NULL REFERENCES webhooks(id),
  round_id         TEXT REFERENCES rounds(id),
  event_type       TEXT NOT NULL,
  payload          TEXT NOT NULL,
  status           TEXT NOT NULL,
  attempts         INTEGER NOT NULL DEFAULT 0,
  next_attempt_at  TEXT NOT NULL,
  first_failure_at TEXT,
  created_at       TEXT NOT NULL
) STRICT;
INSERT INTO webhook_events_rebuilt (seq, id, webhook_id, round_id, event_type, payload, status, attempts,
    next_attempt_at, first_failure_at, created_at)
  SELECT seq, id, webhook_id, round_id, event_type, payload, status, attempts, next_attempt_at,
    first_failure_at, created_at
  FROM webhook_events ORDER BY seq;
DELETE FROM sqlite_sequence WHERE name = 'webhook_events_rebuilt';
INSERT INTO sqlite_sequence (name, seq)
  SELECT 'webhook_events_rebuilt', seq FROM sqlite_sequence WHERE name = 'webhook_events';
DROP TABLE webhook_events;
ALTER TABLE webhook_events_rebuilt RENAME TO webhook_events;
CREATE INDEX webhook_events_queue ON webhook_events(webhook_id, status, seq);
CREATE INDEX webhook_events_by_round ON webhook_events(round_id);
