-- The buy's player-protection checks (issue 25, docs/player-protection.md): when the player last
-- chose "Keep playing" at a reality check in this session (`reality-check-ack` on the socket); the
-- next check falls due an interval after it, or after the session's start while NULL. PostgreSQL: 014.
ALTER TABLE game_sessions ADD COLUMN reality_check_acked_at TEXT;
