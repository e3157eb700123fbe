-- Ending sessions, as SQLite's 019_session_end.sql (issue 25, docs/player-protection.md): when a
-- session was ended and the play error it answers since (SESSION_ENDED or PLAYER_EXCLUDED).
ALTER TABLE game_sessions ADD COLUMN ended_at TEXT COLLATE "C";
ALTER TABLE game_sessions ADD COLUMN end_code TEXT COLLATE "C" CHECK (end_code IN ('SESSION_ENDED', 'PLAYER_EXCLUDED'));

CREATE INDEX game_sessions_by_player ON game_sessions(player_id, created_at, id);
-- The `history` request reads rounds_by_player (001) backwards: no index of its own (SQLite 019).
