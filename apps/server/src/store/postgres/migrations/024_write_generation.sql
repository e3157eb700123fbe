-- Upgrades that cannot mix incompatible instances (issue 36; docs/operating.md, "Upgrading").

-- The oldest code generation that may write to this database (store/write-generation.ts). A
-- migration that changes the rules of a round raises it (README.md beside this file); an instance
-- of an older generation then refuses to write.
CREATE TABLE write_generation (
  id      INTEGER PRIMARY KEY CHECK (id = 1),
  minimum INTEGER NOT NULL CHECK (minimum >= 0)
);
INSERT INTO write_generation (id, minimum) VALUES (1, 1);

-- Each serving instance's heartbeat (every 5 s; gone after 30 s without one), so an instance that
-- would raise the minimum sees which generations are still alive and waits for the older ones.
-- `seen_at` is the database's clock in epoch milliseconds: instances on several machines compare
-- one clock. Written outside any round's unit.
CREATE TABLE instance_heartbeats (
  instance_id TEXT COLLATE "C" PRIMARY KEY,
  generation  INTEGER NOT NULL,
  started_at  BIGINT NOT NULL,
  seen_at     BIGINT NOT NULL
);
