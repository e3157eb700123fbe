-- The tamper-evident record (issue 37, docs/audit.md): each API client's signed anchors, written
-- after the fact by the anchoring job; nothing here is written by a round's unit.
-- An anchor covers the client's ended rounds created in (the previous anchor's round mark, its
-- own] and its audit entries in (previous entry mark, its own]: the marks are in the anchor's row,
-- so the leaves it took and the anchor are committed together or not at all, and the primary key
-- lets only one writer add a client's next seq.
CREATE TABLE audit_anchors (
  client_id     TEXT NOT NULL REFERENCES api_clients(id),
  seq           INTEGER NOT NULL,
  count         INTEGER NOT NULL,
  root          TEXT NOT NULL,
  previous      TEXT NOT NULL,
  at            TEXT NOT NULL,
  key_id        TEXT NOT NULL,
  signature     TEXT NOT NULL,
  round_mark_at TEXT NOT NULL,
  round_mark_id TEXT NOT NULL,
  entry_mark_at TEXT NOT NULL,
  entry_mark_id TEXT NOT NULL,
  -- The leaves' labels and hashes as signed (JSON [[label, hex], ...]): lets verify-audit name the
  -- record that changed. Not trusted: the signed root decides.
  leaves        TEXT NOT NULL,
  PRIMARY KEY (client_id, seq)
) STRICT;

-- Every public key that has signed anchors (GET /v1/audit/key), kept after a rotation.
CREATE TABLE audit_keys (
  key_id     TEXT PRIMARY KEY,
  public_key TEXT NOT NULL,
  since      TEXT NOT NULL
) STRICT;

-- One anchoring process per client at a time across instances, as webhook_leases.
CREATE TABLE audit_leases (
  client_id  TEXT PRIMARY KEY REFERENCES api_clients(id),
  owner      TEXT NOT NULL,
  expires_at TEXT NOT NULL
) STRICT;
