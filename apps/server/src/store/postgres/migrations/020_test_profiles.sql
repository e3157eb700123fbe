-- Test profiles and forced cards (docs/certification.md, issue 38).

-- A profile may be of type `test`.
ALTER TABLE profiles DROP CONSTRAINT profiles_type_check;
ALTER TABLE profiles ADD CONSTRAINT profiles_type_check
  CHECK (type IN ('operator', 'integrator', 'demo', 'test'));

-- A round of a test profile: left out of the report (a profile never changes to or from `test`,
-- so the flag is the profile's, kept on the round for what shows it without a join: its events).
-- A constant default: no rewrite of the table.
ALTER TABLE rounds ADD COLUMN test BOOLEAN NOT NULL DEFAULT false;

-- The levels a test session's next cards are forced to (POST /v1/test/next-cards), in order: a
-- buy takes the lowest position, in the unit that opens its round. 0 is a losing card.
CREATE TABLE test_cards (
  session_id TEXT COLLATE "C" NOT NULL REFERENCES game_sessions(id),
  position   INTEGER NOT NULL,
  level      INTEGER NOT NULL CHECK (level >= 0),
  created_at TEXT COLLATE "C" NOT NULL,
  PRIMARY KEY (session_id, position)
);
