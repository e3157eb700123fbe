-- Ending sessions (issue 25, docs/player-protection.md): an operator's DELETE /v1/game/session/{id}
-- or an exclusion ends a session at once. ended_at is when; end_code the play error every later
-- request and connection of the session answers (SESSION_ENDED or PLAYER_EXCLUDED). PostgreSQL: 015.
ALTER TABLE game_sessions ADD COLUMN ended_at TEXT;
ALTER TABLE game_sessions ADD COLUMN end_code TEXT CHECK (end_code IN ('SESSION_ENDED', 'PLAYER_EXCLUDED'));

-- A player's sessions, newest first: the live ones an exclusion ends and GET /v1/user/{id}/sessions lists.
CREATE INDEX game_sessions_by_player ON game_sessions(player_id, created_at, id);

-- The `history` socket request: a player's last rounds of one game, newest first, in one index range.
CREATE INDEX rounds_by_player_game ON rounds(player_id, game_id, created_at, id);
