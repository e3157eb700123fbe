-- A webhook's attempt counters spread over slots (by the event's seq) and read as the
-- webhook row's own counts plus the slots' sums. The attempts a webhook has in flight together
-- (WEBHOOK_IN_FLIGHT) each add to a slot's row instead of all to the webhook's one, so their units
-- no longer wait on each other's commits. The webhook row keeps what was counted before this
-- migration and what migrate-to-postgres copies; SQLite writes one unit at a time and counts on
-- the webhook's row.
CREATE TABLE webhook_count_slots (
  webhook_id     TEXT COLLATE "C" NOT NULL REFERENCES webhooks(id),
  slot           SMALLINT NOT NULL,
  success_count  BIGINT NOT NULL DEFAULT 0,
  failure_count  BIGINT NOT NULL DEFAULT 0,
  last_triggered TEXT COLLATE "C",
  PRIMARY KEY (webhook_id, slot)
);
