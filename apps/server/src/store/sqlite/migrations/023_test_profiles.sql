-- Test profiles and forced cards (docs/certification.md, issue 38).

-- A profile may be of type `test`. SQLite cannot change a CHECK in place: the table is copied and
-- made again. Foreign keys stay on (a migration runs in one transaction, where they cannot be
-- turned off), so they are deferred: dropping the table leaves its children's rows pointing at
-- nothing for a moment, and putting every row back makes them whole before the commit checks.
PRAGMA defer_foreign_keys = ON;
CREATE TEMP TABLE profiles_copy AS SELECT * FROM profiles;
DROP TABLE profiles;
CREATE TABLE profiles (
  id                     TEXT PRIMARY KEY,
  client_id              TEXT NOT NULL REFERENCES api_clients(id),
  name                   TEXT NOT NULL,
  type                   TEXT NOT NULL CHECK (type IN ('operator', 'integrator', 'demo', 'test')),
  currency               TEXT NOT NULL,
  wallet_url             TEXT,
  wallet_token_enc       TEXT,
  allowed_origins        TEXT NOT NULL DEFAULT '[]',
  created_at             TEXT NOT NULL,
  updated_at             TEXT NOT NULL,
  currencies             TEXT,
  jurisdiction           TEXT CHECK (jurisdiction IN ('BR', 'GB')),
  timezone               TEXT NOT NULL DEFAULT 'UTC',
  reality_check_minutes  INTEGER,
  responsible_gaming_url TEXT
) STRICT;
INSERT INTO profiles (id, client_id, name, type, currency, wallet_url, wallet_token_enc, allowed_origins,
  created_at, updated_at, currencies, jurisdiction, timezone, reality_check_minutes, responsible_gaming_url)
SELECT id, client_id, name, type, currency, wallet_url, wallet_token_enc, allowed_origins,
  created_at, updated_at, currencies, jurisdiction, timezone, reality_check_minutes, responsible_gaming_url
FROM profiles_copy;
DROP TABLE profiles_copy;
CREATE INDEX profiles_by_client ON profiles(client_id, created_at);

-- A round of a test profile: left out of the report (a profile never changes to or from `test`,
-- so the flag is the profile's, kept on the round for what shows it without a join: its events).
ALTER TABLE rounds ADD COLUMN test INTEGER NOT NULL DEFAULT 0;

-- The levels a test session's next cards are forced to (POST /v1/test/next-cards), in order: a
-- buy takes the lowest position, in the unit that opens its round. 0 is a losing card.
CREATE TABLE test_cards (
  session_id TEXT NOT NULL REFERENCES game_sessions(id),
  position   INTEGER NOT NULL,
  level      INTEGER NOT NULL CHECK (level >= 0),
  created_at TEXT NOT NULL,
  PRIMARY KEY (session_id, position)
) STRICT, WITHOUT ROWID;
