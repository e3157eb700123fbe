-- Upgrades that cannot mix incompatible instances (issue 36; docs/operating.md, "Upgrading").

-- The oldest code generation that may write to this database (store/write-generation.ts). A
-- migration that changes the rules of a round raises it (../postgres/migrations/README.md); a
-- process of an older generation then refuses to write. The embedded file has no heartbeats:
-- its processes are one service's, stopped and started together.
CREATE TABLE write_generation (
  id      INTEGER PRIMARY KEY CHECK (id = 1),
  minimum INTEGER NOT NULL CHECK (minimum >= 0)
) STRICT;
INSERT INTO write_generation (id, minimum) VALUES (1, 1);
