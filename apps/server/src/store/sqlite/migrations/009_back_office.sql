-- The back office (docs/contract.md §11): who did what (the audit log), every attempt of a wallet
-- call, how a person settled a round flagged for reconciliation, and which login a token set
-- came from (the audit log tells an API key from the panel).

-- api-key: POST /v1/auth/login; panel: POST /v1/auth/panel-login. Older sets came from the API key.
ALTER TABLE token_sets ADD COLUMN via TEXT NOT NULL DEFAULT 'api-key' CHECK (via IN ('api-key', 'panel'));

-- One row per write through the API that changed something, kept for the API client to read.
CREATE TABLE audit_log (
  id        TEXT PRIMARY KEY,
  client_id TEXT NOT NULL REFERENCES api_clients(id),
  actor     TEXT NOT NULL CHECK (actor IN ('api-key', 'panel')),
  operation TEXT NOT NULL,
  target_id TEXT,
  ip        TEXT NOT NULL,
  at        TEXT NOT NULL
) STRICT;
CREATE INDEX audit_log_by_client ON audit_log(client_id, at, id);

-- Every attempt of a wallet call (the transaction it carries), with what came back. Written in
-- the transaction that records the answer, so an attempt cut by a crash leaves no row.
CREATE TABLE wallet_call_attempts (
  id             TEXT PRIMARY KEY,
  transaction_id TEXT NOT NULL REFERENCES transactions(id),
  round_id       TEXT NOT NULL REFERENCES rounds(id),
  attempt        INTEGER NOT NULL,
  sent_at        TEXT NOT NULL,
  duration_ms    INTEGER NOT NULL,
  outcome        TEXT NOT NULL CHECK (outcome IN ('ok', 'declined', 'unknown')),
  http_status    INTEGER,
  balance_minor  INTEGER,
  detail         TEXT
) STRICT;
CREATE INDEX wallet_call_attempts_by_round ON wallet_call_attempts(round_id, sent_at, id);

-- A flagged round a person settled: the round's flag is cleared in the same transaction.
CREATE TABLE round_resolutions (
  round_id    TEXT PRIMARY KEY REFERENCES rounds(id),
  resolution  TEXT NOT NULL CHECK (resolution IN ('paid', 'written-off')),
  note        TEXT NOT NULL,
  resolved_at TEXT NOT NULL
) STRICT;

-- The reconciliation list: a client's flagged rounds, newest first, without reading the others.
CREATE INDEX rounds_flagged ON rounds(client_id, created_at, id) WHERE reconciliation = 1;
-- A round's webhook deliveries: its events (their attempts by event: 004_play_indexes.sql).
CREATE INDEX webhook_events_by_round ON webhook_events(round_id);
