-- Player protection (issue 25, docs/player-protection.md): the profile's jurisdiction preset, the
-- time zone its limits' days, weeks and months are counted in, its default reality-check interval
-- and its responsible-gaming page; a player's limits and exclusion. PostgreSQL: 011.
ALTER TABLE profiles ADD COLUMN jurisdiction TEXT CHECK (jurisdiction IN ('BR', 'GB'));
ALTER TABLE profiles ADD COLUMN timezone TEXT NOT NULL DEFAULT 'UTC';
ALTER TABLE profiles ADD COLUMN reality_check_minutes INTEGER;
ALTER TABLE profiles ADD COLUMN responsible_gaming_url TEXT;

-- One row per limit of a player. limit_key: a money limit's `loss:day:BRL` (core limitKeyOf,
-- value in minor units), `session-minutes` or `reality-check-minutes` (minutes). A looser value
-- waits 24 hours (core limit-changes.ts): pending_applies_at set, pending_value NULL when the
-- limit is to be removed. A row with neither a value nor a pending one is deleted, not kept.
CREATE TABLE player_limits (
  player_id          TEXT NOT NULL REFERENCES players(id),
  limit_key          TEXT NOT NULL,
  value              INTEGER,
  pending_value      INTEGER,
  pending_applies_at TEXT,
  PRIMARY KEY (player_id, limit_key)
) STRICT;

-- The player's exclusion, at most one (a new one replaces it; the audit log keeps the history).
-- ends_at NULL: indefinite. An ended one may stay: it no longer holds (core exclusion.ts).
CREATE TABLE player_exclusions (
  player_id  TEXT PRIMARY KEY REFERENCES players(id),
  reason     TEXT NOT NULL CHECK (reason IN ('self', 'operator')),
  ends_at    TEXT,
  created_at TEXT NOT NULL
) STRICT;
