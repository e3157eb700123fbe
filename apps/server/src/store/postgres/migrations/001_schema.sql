-- The schema of the SQLite migrations 001–008 (store/sqlite/migrations/), in one file: the same
-- tables, columns, constraints and indexes, with the same meaning. A later SQLite migration gets
-- its PostgreSQL counterpart here under the next free number.
--
-- Differences of spelling, not of meaning:
-- - Text is COLLATE "C": ids and ISO times sort and compare byte by byte, as SQLite's BINARY does,
--   whatever the database's locale (a locale's collation ignores punctuation and would reorder
--   '2030-01-01T00:00:10.000Z' against ids and times).
-- - Money, counters and epoch milliseconds are BIGINT; the adapter reads them back as JS numbers
--   and refuses any that is not a safe integer. Flags are BOOLEAN.
-- - E-mails are unique and looked up ignoring ASCII case (SQLite: COLLATE NOCASE): lower(email).
-- - webhook_events.seq is an identity column (SQLite: INTEGER PRIMARY KEY AUTOINCREMENT).
-- - SQLite's round_types and ledger_counts (003_ledger_lists.sql) are not here: they are derived
--   tables that make SQLite's list totals fast; this adapter counts the rows (docs/store.md).

CREATE TABLE api_clients (
  id            TEXT COLLATE "C" PRIMARY KEY,
  name          TEXT NOT NULL,
  email         TEXT COLLATE "C" NOT NULL,
  api_key_hash  TEXT COLLATE "C" NOT NULL UNIQUE,
  password_hash TEXT,
  lang          TEXT COLLATE "C" NOT NULL DEFAULT 'en',
  created_at    TEXT COLLATE "C" NOT NULL
);
CREATE UNIQUE INDEX api_clients_email ON api_clients (lower(email));

CREATE TABLE token_sets (
  id          TEXT COLLATE "C" PRIMARY KEY,
  client_id   TEXT COLLATE "C" NOT NULL REFERENCES api_clients(id),
  access_hash TEXT COLLATE "C" NOT NULL UNIQUE,
  expire_at   TEXT COLLATE "C" NOT NULL,
  revoked_at  TEXT COLLATE "C",
  created_at  TEXT COLLATE "C" NOT NULL
);
CREATE INDEX token_sets_by_client ON token_sets(client_id);

CREATE TABLE reset_tokens (
  id         TEXT COLLATE "C" PRIMARY KEY,
  client_id  TEXT COLLATE "C" NOT NULL REFERENCES api_clients(id),
  token_hash TEXT COLLATE "C" NOT NULL UNIQUE,
  expire_at  TEXT COLLATE "C" NOT NULL,
  used_at    TEXT COLLATE "C",
  created_at TEXT COLLATE "C" NOT NULL
);

CREATE TABLE captchas (
  id          TEXT COLLATE "C" PRIMARY KEY,
  answer_hash TEXT COLLATE "C" NOT NULL,
  expire_at   TEXT COLLATE "C" NOT NULL,
  used_at     TEXT COLLATE "C"
);

CREATE TABLE profiles (
  id               TEXT COLLATE "C" PRIMARY KEY,
  client_id        TEXT COLLATE "C" NOT NULL REFERENCES api_clients(id),
  name             TEXT NOT NULL,
  type             TEXT COLLATE "C" NOT NULL CHECK (type IN ('operator', 'integrator', 'demo')),
  currency         TEXT COLLATE "C" NOT NULL,
  -- The currencies its games may be priced in, as a JSON array; NULL = any ISO 4217 code.
  currencies       TEXT,
  wallet_url       TEXT,
  wallet_token_enc TEXT,
  allowed_origins  TEXT NOT NULL DEFAULT '[]',
  created_at       TEXT COLLATE "C" NOT NULL,
  updated_at       TEXT COLLATE "C" NOT NULL
);
CREATE INDEX profiles_by_client ON profiles(client_id, created_at);

CREATE TABLE games (
  id          TEXT COLLATE "C" PRIMARY KEY,
  client_id   TEXT COLLATE "C" NOT NULL REFERENCES api_clients(id),
  profile_id  TEXT COLLATE "C" NOT NULL REFERENCES profiles(id),
  game_model  TEXT COLLATE "C" NOT NULL,
  version     INTEGER NOT NULL,
  active      BOOLEAN NOT NULL,
  lang        TEXT COLLATE "C" NOT NULL,
  currency    TEXT COLLATE "C" NOT NULL,
  rtp_ppm     INTEGER NOT NULL,
  sampling    BIGINT NOT NULL,
  prized_ppm  INTEGER NOT NULL,
  bet_minor   BIGINT NOT NULL,
  ladder_json TEXT NOT NULL,
  created_at  TEXT COLLATE "C" NOT NULL,
  UNIQUE (profile_id, game_model, version)
);
-- At most one active version per (profile, model): docs/contract.md §3.
CREATE UNIQUE INDEX games_one_active ON games(profile_id, game_model) WHERE active;

CREATE TABLE players (
  id              TEXT COLLATE "C" PRIMARY KEY,
  client_id       TEXT COLLATE "C" NOT NULL REFERENCES api_clients(id),
  profile_id      TEXT COLLATE "C" NOT NULL REFERENCES profiles(id),
  credential      TEXT COLLATE "C" NOT NULL,
  credential_type TEXT COLLATE "C" NOT NULL CHECK (credential_type IN ('email', 'username', 'phone', 'external')),
  balance_minor   BIGINT NOT NULL DEFAULT 0,
  bet_wins        BIGINT NOT NULL DEFAULT 0,
  total_bets      BIGINT NOT NULL DEFAULT 0,
  created_at      TEXT COLLATE "C" NOT NULL,
  UNIQUE (profile_id, credential_type, credential)
);
CREATE INDEX players_by_profile ON players(profile_id, created_at);

-- The last balance the wallet reported for a player, per currency (SQLite 005).
CREATE TABLE player_balances (
  player_id     TEXT COLLATE "C" NOT NULL REFERENCES players(id),
  currency      TEXT COLLATE "C" NOT NULL,
  balance_minor BIGINT NOT NULL,
  PRIMARY KEY (player_id, currency)
);

CREATE TABLE user_tokens (
  token_hash TEXT COLLATE "C" PRIMARY KEY,
  player_id  TEXT COLLATE "C" NOT NULL REFERENCES players(id),
  expire_at  TEXT COLLATE "C" NOT NULL,
  created_at TEXT COLLATE "C" NOT NULL
);

CREATE TABLE game_sessions (
  id         TEXT COLLATE "C" PRIMARY KEY,
  client_id  TEXT COLLATE "C" NOT NULL REFERENCES api_clients(id),
  profile_id TEXT COLLATE "C" NOT NULL REFERENCES profiles(id),
  player_id  TEXT COLLATE "C" NOT NULL REFERENCES players(id),
  game_id    TEXT COLLATE "C" NOT NULL REFERENCES games(id),
  token_hash TEXT COLLATE "C" NOT NULL UNIQUE,
  lang       TEXT COLLATE "C" NOT NULL,
  return_url TEXT,
  expire_at  TEXT COLLATE "C" NOT NULL,
  created_at TEXT COLLATE "C" NOT NULL
);

-- A game version's pools, one after the other. The seed is sealed with the server key until the
-- pool ends; then it is published (seed_hex) so anyone can re-derive every ticket.
CREATE TABLE pools (
  id          TEXT COLLATE "C" PRIMARY KEY,
  game_id     TEXT COLLATE "C" NOT NULL REFERENCES games(id),
  number      INTEGER NOT NULL,
  sampling    BIGINT NOT NULL,
  seed_sealed TEXT NOT NULL,
  commitment  TEXT COLLATE "C" NOT NULL,
  draws       BIGINT NOT NULL DEFAULT 0,
  seed_hex    TEXT COLLATE "C",
  started_at  TEXT COLLATE "C" NOT NULL,
  ended_at    TEXT COLLATE "C",
  UNIQUE (game_id, number)
);
CREATE UNIQUE INDEX pools_one_current ON pools(game_id) WHERE ended_at IS NULL;

-- Round states: pending (bet sent, no answer yet) → open (card shown) → closing (prize being paid)
-- → closed; or declined (the wallet refused the bet) / voided (no definite answer: rolled back).
CREATE TABLE rounds (
  id             TEXT COLLATE "C" PRIMARY KEY,
  client_id      TEXT COLLATE "C" NOT NULL REFERENCES api_clients(id),
  profile_id     TEXT COLLATE "C" NOT NULL REFERENCES profiles(id),
  game_id        TEXT COLLATE "C" NOT NULL REFERENCES games(id),
  player_id      TEXT COLLATE "C" NOT NULL REFERENCES players(id),
  session_id     TEXT COLLATE "C" NOT NULL REFERENCES game_sessions(id),
  status         TEXT COLLATE "C" NOT NULL,
  currency       TEXT COLLATE "C" NOT NULL,
  paid_minor     BIGINT NOT NULL,
  prize_minor    BIGINT NOT NULL DEFAULT 0,
  created_at     TEXT COLLATE "C" NOT NULL,
  end_at         TEXT COLLATE "C",
  pool_id        TEXT COLLATE "C" REFERENCES pools(id),
  draw_index     BIGINT,
  level          INTEGER,
  card_json      TEXT,
  last_action_at TEXT COLLATE "C",
  reconciliation BOOLEAN NOT NULL DEFAULT false
);
CREATE INDEX rounds_by_client ON rounds(client_id, created_at, id);
CREATE INDEX rounds_by_profile ON rounds(client_id, profile_id, created_at, id);
CREATE INDEX rounds_by_player ON rounds(player_id, created_at, id);
-- One round at a time per player: a second buy while one waits on the wallet or is open is refused.
CREATE UNIQUE INDEX rounds_one_live_per_player ON rounds(player_id) WHERE status IN ('pending', 'open', 'closing');
CREATE INDEX rounds_open_by_last_action ON rounds(status, last_action_at);
CREATE UNIQUE INDEX rounds_by_pool_draw ON rounds(pool_id, draw_index) WHERE pool_id IS NOT NULL;

-- Each wallet call is the transaction it moves, committed as pending before it is sent
-- (statuses: pending, completed, declined, failed). Retries are scheduled here; a pending call's
-- lease is its next_attempt_at, lease_owner says which process holds it (SQLite 008).
CREATE TABLE transactions (
  id                      TEXT COLLATE "C" PRIMARY KEY,
  round_id                TEXT COLLATE "C" NOT NULL REFERENCES rounds(id),
  client_id               TEXT COLLATE "C" NOT NULL REFERENCES api_clients(id),
  profile_id              TEXT COLLATE "C" NOT NULL REFERENCES profiles(id),
  player_id               TEXT COLLATE "C" NOT NULL REFERENCES players(id),
  type                    TEXT COLLATE "C" NOT NULL CHECK (type IN ('deposit', 'bet', 'prize', 'rollback')),
  amount_minor            BIGINT NOT NULL,
  currency                TEXT COLLATE "C" NOT NULL,
  balance_before_minor    BIGINT,
  balance_after_minor     BIGINT,
  status                  TEXT COLLATE "C" NOT NULL,
  created_at              TEXT COLLATE "C" NOT NULL,
  original_transaction_id TEXT COLLATE "C",
  attempts                INTEGER NOT NULL DEFAULT 0,
  next_attempt_at         TEXT COLLATE "C",
  last_error              TEXT,
  completed_at            TEXT COLLATE "C",
  lease_owner             TEXT COLLATE "C"
);
CREATE INDEX transactions_by_client ON transactions(client_id, created_at, id);
CREATE INDEX transactions_by_round ON transactions(round_id, created_at, id);
CREATE INDEX transactions_by_player ON transactions(player_id, created_at, id);
CREATE INDEX transactions_by_profile ON transactions(client_id, profile_id, created_at, id);
CREATE INDEX transactions_by_type ON transactions(client_id, type, created_at, id);
CREATE INDEX transactions_by_profile_type ON transactions(client_id, profile_id, type, created_at, id);
CREATE INDEX transactions_pending ON transactions(next_attempt_at) WHERE status = 'pending';

CREATE TABLE webhooks (
  id             TEXT COLLATE "C" PRIMARY KEY,
  client_id      TEXT COLLATE "C" NOT NULL REFERENCES api_clients(id),
  url            TEXT COLLATE "C" NOT NULL,
  event_triggers TEXT NOT NULL,
  token_enc      TEXT NOT NULL,
  status         TEXT COLLATE "C" NOT NULL,
  created_at     TEXT COLLATE "C" NOT NULL,
  last_triggered TEXT COLLATE "C",
  success_count  BIGINT NOT NULL DEFAULT 0,
  failure_count  BIGINT NOT NULL DEFAULT 0,
  deleted_at     TEXT COLLATE "C"
);
CREATE UNIQUE INDEX webhooks_one_url ON webhooks(client_id, url) WHERE deleted_at IS NULL;

CREATE TABLE webhook_deliveries (
  id            TEXT COLLATE "C" PRIMARY KEY,
  webhook_id    TEXT COLLATE "C" NOT NULL REFERENCES webhooks(id),
  event_id      TEXT COLLATE "C" NOT NULL,
  event_type    TEXT COLLATE "C" NOT NULL,
  payload       TEXT NOT NULL,
  response_code INTEGER,
  response_body TEXT NOT NULL DEFAULT '',
  success       BOOLEAN NOT NULL,
  status        TEXT COLLATE "C" NOT NULL CHECK (status IN ('success', 'failed', 'pending')),
  duration_ms   BIGINT NOT NULL,
  timestamp     TEXT COLLATE "C" NOT NULL,
  retry_count   INTEGER NOT NULL,
  error_message TEXT
);
CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries(webhook_id, timestamp, id);
CREATE INDEX webhook_deliveries_by_event ON webhook_deliveries(event_id);

-- The webhook outbox: written in the round's transaction, one row per subscribed webhook, sent in
-- order (seq) per webhook by the dispatcher. status: queued, delivered, failed (gave up), dropped
-- (webhook disabled or deleted).
CREATE TABLE webhook_events (
  seq              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id               TEXT COLLATE "C" NOT NULL UNIQUE,
  webhook_id       TEXT COLLATE "C" NOT NULL REFERENCES webhooks(id),
  round_id         TEXT COLLATE "C" NOT NULL REFERENCES rounds(id),
  event_type       TEXT COLLATE "C" NOT NULL,
  payload          TEXT NOT NULL,
  status           TEXT COLLATE "C" NOT NULL,
  attempts         INTEGER NOT NULL DEFAULT 0,
  next_attempt_at  TEXT COLLATE "C" NOT NULL,
  first_failure_at TEXT COLLATE "C",
  created_at       TEXT COLLATE "C" NOT NULL
);
CREATE INDEX webhook_events_queue ON webhook_events(webhook_id, status, seq);

-- One process at a time drains a webhook's queue: that keeps the webhook's ordering rule (a
-- round's close-round after its open-round) and its in-flight limit in one place.
CREATE TABLE webhook_leases (
  webhook_id TEXT COLLATE "C" PRIMARY KEY REFERENCES webhooks(id),
  owner      TEXT COLLATE "C" NOT NULL,
  expires_at TEXT COLLATE "C" NOT NULL
);

-- The built-in demo wallet of demo profiles: balances per player and currency, and every call by
-- transactionId so a repeat gets the first answer.
CREATE TABLE demo_wallet_accounts (
  player_id     TEXT COLLATE "C" NOT NULL REFERENCES players(id),
  currency      TEXT COLLATE "C" NOT NULL,
  balance_minor BIGINT NOT NULL,
  PRIMARY KEY (player_id, currency)
);
CREATE TABLE demo_wallet_calls (
  transaction_id TEXT COLLATE "C" PRIMARY KEY,
  player_id      TEXT COLLATE "C" NOT NULL,
  kind           TEXT COLLATE "C" NOT NULL,
  amount_minor   BIGINT NOT NULL,
  answer         TEXT NOT NULL,
  created_at     TEXT COLLATE "C" NOT NULL
);

-- Idempotency-Key on the API's writes (SQLite 006).
CREATE TABLE idempotency_keys (
  client_id       TEXT COLLATE "C" NOT NULL REFERENCES api_clients(id),
  idem_key        TEXT COLLATE "C" NOT NULL,
  fingerprint     TEXT COLLATE "C" NOT NULL,
  state           TEXT COLLATE "C" NOT NULL CHECK (state IN ('in_progress', 'completed')),
  response_status INTEGER,
  response_body   TEXT,
  created_at      TEXT COLLATE "C" NOT NULL,
  expires_at      TEXT COLLATE "C" NOT NULL,
  completed_at    TEXT COLLATE "C",
  PRIMARY KEY (client_id, idem_key)
);
CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys(expires_at);

-- Rate-limit counters of the /auth routes (SQLite 007); times are epoch milliseconds.
CREATE TABLE rate_limit_counters (
  counter_key TEXT COLLATE "C" PRIMARY KEY,
  hits        BIGINT NOT NULL CHECK (hits >= 0),
  reset_at    BIGINT NOT NULL
);
CREATE INDEX rate_limit_counters_by_reset ON rate_limit_counters(reset_at);
