-- Idempotency-Key on the API's writes (issue 11, README "Retrying safely"). One row per (API client,
-- key): claimed as in_progress before the handler runs, completed with the stored answer after the
-- handler's own writes committed, deleted if the handler failed with a 5xx. Rows live 24 h.
CREATE TABLE idempotency_keys (
  client_id TEXT NOT NULL REFERENCES api_clients(id),
  idem_key TEXT NOT NULL,
  -- SHA-256 hex of the canonical JSON of method, route, path params, query and body.
  fingerprint TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('in_progress', 'completed')),
  response_status INTEGER,
  response_body TEXT,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  completed_at TEXT,
  PRIMARY KEY (client_id, idem_key)
) STRICT;

CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys(expires_at);
