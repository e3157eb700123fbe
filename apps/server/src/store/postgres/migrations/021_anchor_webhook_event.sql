-- The `anchor` webhook event (issue 37, docs/audit.md), as SQLite's 024_anchor_webhook_event.sql:
-- an outbox event with no round, so webhook_events.round_id may be NULL (an anchor event's). Its
-- foreign key was dropped by 016; this changes no row and no index.
ALTER TABLE webhook_events ALTER COLUMN round_id DROP NOT NULL;
