-- As SQLite's 018_reality_check_ack.sql (issue 25): the session's last "Keep playing" at a reality check.
ALTER TABLE game_sessions ADD COLUMN reality_check_acked_at TEXT COLLATE "C";
