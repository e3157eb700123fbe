-- Ending sessions (issue 25, docs/player-protection.md): an operator's DELETE /v1/game/session/{id}
-- or an exclusion ends a session at once. ended_at is when; end_code the play error every later
-- request and connection of the session answers (SESSION_ENDED or PLAYER_EXCLUDED). PostgreSQL: 015.
ALTER TABLE game_sessions ADD COLUMN ended_at TEXT;
ALTER TABLE game_sessions ADD COLUMN end_code TEXT CHECK (end_code IN ('SESSION_ENDED', 'PLAYER_EXCLUDED'));

-- A player's sessions, newest first: the live ones an exclusion ends and GET /v1/user/{id}/sessions lists.
CREATE INDEX game_sessions_by_player ON game_sessions(player_id, created_at, id);

-- The `history` socket request reads rounds_by_player (001) backwards: an index of its own cost every
-- round's COMMIT 0.08 ms more on this file (docs/benchmarks.md, issue 24's before and after).
