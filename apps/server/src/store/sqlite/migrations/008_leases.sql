-- Leases (issue 12): work that any process of an installation may pick up is claimed in the
-- database with an owner and an expiry, so two processes never do it at once and a process that
-- dies leaves nothing stuck. A pending wallet call's lease is its next_attempt_at (the time until
-- which it is left to its sender); lease_owner says which process holds it.
ALTER TABLE transactions ADD COLUMN lease_owner TEXT;

-- One process at a time drains a webhook's queue: that keeps the webhook's ordering rule (a
-- round's close-round after its open-round) and its in-flight limit in one place.
CREATE TABLE webhook_leases (
  webhook_id TEXT PRIMARY KEY REFERENCES webhooks(id),
  owner TEXT NOT NULL,
  expires_at TEXT NOT NULL
) STRICT;
