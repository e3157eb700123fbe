-- Player protection, as SQLite's 015_player_protection.sql (issue 25, docs/player-protection.md):
-- the profile's jurisdiction, time zone, default reality-check interval and responsible-gaming
-- page; a player's limits (limit_key as there) and exclusion.
ALTER TABLE profiles ADD COLUMN jurisdiction TEXT COLLATE "C" CHECK (jurisdiction IN ('BR', 'GB'));
ALTER TABLE profiles ADD COLUMN timezone TEXT COLLATE "C" NOT NULL DEFAULT 'UTC';
ALTER TABLE profiles ADD COLUMN reality_check_minutes INTEGER;
ALTER TABLE profiles ADD COLUMN responsible_gaming_url TEXT;

CREATE TABLE player_limits (
  player_id          TEXT COLLATE "C" NOT NULL REFERENCES players(id),
  limit_key          TEXT COLLATE "C" NOT NULL,
  value              BIGINT,
  pending_value      BIGINT,
  pending_applies_at TEXT COLLATE "C",
  PRIMARY KEY (player_id, limit_key)
);

CREATE TABLE player_exclusions (
  player_id  TEXT COLLATE "C" PRIMARY KEY REFERENCES players(id),
  reason     TEXT COLLATE "C" NOT NULL CHECK (reason IN ('self', 'operator')),
  ends_at    TEXT COLLATE "C",
  created_at TEXT COLLATE "C" NOT NULL
);
