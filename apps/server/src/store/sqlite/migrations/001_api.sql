-- The integrator API: clients and their tokens, profiles, games, players, sessions, webhooks,
-- and the round/transaction ledger the lists read. Money columns are integer minor units.

CREATE TABLE api_clients (
  id            TEXT PRIMARY KEY,
  name          TEXT NOT NULL,
  email         TEXT NOT NULL UNIQUE COLLATE NOCASE,
  api_key_hash  TEXT NOT NULL UNIQUE,
  password_hash TEXT,
  lang          TEXT NOT NULL DEFAULT 'en',
  created_at    TEXT NOT NULL
) STRICT;

CREATE TABLE token_sets (
  id          TEXT PRIMARY KEY,
  client_id   TEXT NOT NULL REFERENCES api_clients(id),
  access_hash TEXT NOT NULL UNIQUE,
  expire_at   TEXT NOT NULL,
  revoked_at  TEXT,
  created_at  TEXT NOT NULL
) STRICT;
CREATE INDEX token_sets_by_client ON token_sets(client_id);

CREATE TABLE reset_tokens (
  id         TEXT PRIMARY KEY,
  client_id  TEXT NOT NULL REFERENCES api_clients(id),
  token_hash TEXT NOT NULL UNIQUE,
  expire_at  TEXT NOT NULL,
  used_at    TEXT,
  created_at TEXT NOT NULL
) STRICT;

CREATE TABLE captchas (
  id          TEXT PRIMARY KEY,
  answer_hash TEXT NOT NULL,
  expire_at   TEXT NOT NULL,
  used_at     TEXT
) STRICT;

CREATE TABLE profiles (
  id               TEXT PRIMARY KEY,
  client_id        TEXT NOT NULL REFERENCES api_clients(id),
  name             TEXT NOT NULL,
  type             TEXT NOT NULL CHECK (type IN ('operator', 'integrator', 'demo')),
  currency         TEXT NOT NULL,
  wallet_url       TEXT,
  wallet_token_enc TEXT,
  allowed_origins  TEXT NOT NULL DEFAULT '[]',
  created_at       TEXT NOT NULL,
  updated_at       TEXT NOT NULL
) STRICT;
CREATE INDEX profiles_by_client ON profiles(client_id, created_at);

CREATE TABLE games (
  id          TEXT PRIMARY KEY,
  client_id   TEXT NOT NULL REFERENCES api_clients(id),
  profile_id  TEXT NOT NULL REFERENCES profiles(id),
  game_model  TEXT NOT NULL,
  version     INTEGER NOT NULL,
  active      INTEGER NOT NULL CHECK (active IN (0, 1)),
  lang        TEXT NOT NULL,
  currency    TEXT NOT NULL,
  rtp_ppm     INTEGER NOT NULL,
  sampling    INTEGER NOT NULL,
  prized_ppm  INTEGER NOT NULL,
  bet_minor   INTEGER NOT NULL,
  ladder_json TEXT NOT NULL,
  created_at  TEXT NOT NULL,
  UNIQUE (profile_id, game_model, version)
) STRICT;
-- At most one active version per (profile, model): docs/contract.md §3.
CREATE UNIQUE INDEX games_one_active ON games(profile_id, game_model) WHERE active = 1;

CREATE TABLE players (
  id              TEXT PRIMARY KEY,
  client_id       TEXT NOT NULL REFERENCES api_clients(id),
  profile_id      TEXT NOT NULL REFERENCES profiles(id),
  credential      TEXT NOT NULL,
  credential_type TEXT NOT NULL CHECK (credential_type IN ('email', 'username', 'phone', 'external')),
  balance_minor   INTEGER NOT NULL DEFAULT 0,
  bet_wins        INTEGER NOT NULL DEFAULT 0,
  total_bets      INTEGER NOT NULL DEFAULT 0,
  created_at      TEXT NOT NULL,
  UNIQUE (profile_id, credential_type, credential)
) STRICT;
CREATE INDEX players_by_profile ON players(profile_id, created_at);

CREATE TABLE user_tokens (
  token_hash TEXT PRIMARY KEY,
  player_id  TEXT NOT NULL REFERENCES players(id),
  expire_at  TEXT NOT NULL,
  created_at TEXT NOT NULL
) STRICT;

CREATE TABLE game_sessions (
  id         TEXT PRIMARY KEY,
  client_id  TEXT NOT NULL REFERENCES api_clients(id),
  profile_id TEXT NOT NULL REFERENCES profiles(id),
  player_id  TEXT NOT NULL REFERENCES players(id),
  game_id    TEXT NOT NULL REFERENCES games(id),
  token_hash TEXT NOT NULL UNIQUE,
  lang       TEXT NOT NULL,
  return_url TEXT,
  expire_at  TEXT NOT NULL,
  created_at TEXT NOT NULL
) STRICT;

CREATE TABLE rounds (
  id           TEXT PRIMARY KEY,
  client_id    TEXT NOT NULL REFERENCES api_clients(id),
  profile_id   TEXT NOT NULL REFERENCES profiles(id),
  game_id      TEXT NOT NULL REFERENCES games(id),
  player_id    TEXT NOT NULL REFERENCES players(id),
  session_id   TEXT NOT NULL REFERENCES game_sessions(id),
  status       TEXT NOT NULL,
  currency     TEXT NOT NULL,
  paid_minor   INTEGER NOT NULL,
  prize_minor  INTEGER NOT NULL DEFAULT 0,
  created_at   TEXT NOT NULL,
  end_at       TEXT
) STRICT;
CREATE INDEX rounds_by_client ON rounds(client_id, created_at, id);
CREATE INDEX rounds_by_profile ON rounds(profile_id, created_at, id);
CREATE INDEX rounds_by_player ON rounds(player_id, created_at, id);

CREATE TABLE transactions (
  id                   TEXT PRIMARY KEY,
  round_id             TEXT NOT NULL REFERENCES rounds(id),
  client_id            TEXT NOT NULL REFERENCES api_clients(id),
  profile_id           TEXT NOT NULL REFERENCES profiles(id),
  player_id            TEXT NOT NULL REFERENCES players(id),
  type                 TEXT NOT NULL CHECK (type IN ('deposit', 'bet', 'prize', 'rollback')),
  amount_minor         INTEGER NOT NULL,
  currency             TEXT NOT NULL,
  balance_before_minor INTEGER,
  balance_after_minor  INTEGER,
  status               TEXT NOT NULL,
  created_at           TEXT NOT NULL
) STRICT;
CREATE INDEX transactions_by_client ON transactions(client_id, created_at, id);
CREATE INDEX transactions_by_round ON transactions(round_id, created_at, id);
CREATE INDEX transactions_by_player ON transactions(player_id, created_at, id);

CREATE TABLE webhooks (
  id             TEXT PRIMARY KEY,
  client_id      TEXT NOT NULL REFERENCES api_clients(id),
  url            TEXT NOT NULL,
  event_triggers TEXT NOT NULL,
  token_enc      TEXT NOT NULL,
  status         TEXT NOT NULL,
  created_at     TEXT NOT NULL,
  last_triggered TEXT,
  success_count  INTEGER NOT NULL DEFAULT 0,
  failure_count  INTEGER NOT NULL DEFAULT 0,
  deleted_at     TEXT
) STRICT;
CREATE UNIQUE INDEX webhooks_one_url ON webhooks(client_id, url) WHERE deleted_at IS NULL;

CREATE TABLE webhook_deliveries (
  id            TEXT PRIMARY KEY,
  webhook_id    TEXT NOT NULL REFERENCES webhooks(id),
  event_id      TEXT NOT NULL,
  event_type    TEXT NOT NULL,
  payload       TEXT NOT NULL,
  response_code INTEGER,
  response_body TEXT NOT NULL DEFAULT '',
  success       INTEGER NOT NULL,
  status        TEXT NOT NULL CHECK (status IN ('success', 'failed', 'pending')),
  duration_ms   INTEGER NOT NULL,
  timestamp     TEXT NOT NULL,
  retry_count   INTEGER NOT NULL,
  error_message TEXT
) STRICT;
CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries(webhook_id, timestamp, id);
