-- The round and transaction lists on a large ledger (issue 7: under 20 ms on 1,000,000 rounds).
-- Measured before this file: count(*) for totalCount walked every matching index entry (92 ms for
-- 1M rounds, 127-270 ms for 1.45M transactions), filters by profile or type had no index of their
-- own (0.5-4 s), and "rounds having a transaction of type X" probed every round.

-- Page queries read an index alone: one per filter combination, each led by client_id (every
-- list is one API client's) and ending in the list's order (created_at, id).
CREATE INDEX transactions_by_profile ON transactions(client_id, profile_id, created_at, id);
CREATE INDEX transactions_by_type ON transactions(client_id, type, created_at, id);
CREATE INDEX transactions_by_profile_type ON transactions(client_id, profile_id, type, created_at, id);
-- Replaces rounds_by_profile (profile_id, created_at, id), which only the round list used: with
-- client_id in front the list reads the index without visiting each round.
DROP INDEX rounds_by_profile;
CREATE INDEX rounds_by_profile ON rounds(client_id, profile_id, created_at, id);

-- Which rounds have a transaction of each type (the round list's `type` filter), in the round
-- list's order (by profile too: its index is made once the table is filled, below). Kept by the
-- triggers below; a round's client, profile and time are copied in.
CREATE TABLE round_types (
  client_id  TEXT NOT NULL,
  type       TEXT NOT NULL,
  created_at TEXT NOT NULL,
  round_id   TEXT NOT NULL,
  profile_id TEXT NOT NULL,
  PRIMARY KEY (client_id, type, created_at, round_id)
) STRICT, WITHOUT ROWID;

-- Exact row counts per (client, list, type, profile, UTC day), so a list's totalCount is a sum of
-- at most (types × profiles × days) rows instead of a walk over every matching record. list:
-- 'round' or 'transaction'; type: for transactions their type, for rounds '' (every round) or a
-- transaction type (rounds having one). Kept in the same transaction as the rows they count.
CREATE TABLE ledger_counts (
  client_id  TEXT NOT NULL,
  list       TEXT NOT NULL CHECK (list IN ('round', 'transaction')),
  type       TEXT NOT NULL,
  profile_id TEXT NOT NULL,
  day        TEXT NOT NULL,
  n          INTEGER NOT NULL,
  PRIMARY KEY (client_id, list, type, profile_id, day)
) STRICT, WITHOUT ROWID;

-- What the ledger holds already (in key order, and indexed after: 1M rounds in seconds).
INSERT INTO round_types (client_id, type, created_at, round_id, profile_id)
  SELECT r.client_id, t.type, r.created_at, r.id, r.profile_id
  FROM transactions t JOIN rounds r ON r.id = t.round_id WHERE true
  ORDER BY r.client_id, t.type, r.created_at, r.id
  ON CONFLICT DO NOTHING;
CREATE INDEX round_types_by_profile ON round_types(client_id, profile_id, type, created_at, round_id);
INSERT INTO ledger_counts (client_id, list, type, profile_id, day, n)
  SELECT client_id, 'round', '', profile_id, substr(created_at, 1, 10), count(*)
  FROM rounds GROUP BY client_id, profile_id, substr(created_at, 1, 10);
INSERT INTO ledger_counts (client_id, list, type, profile_id, day, n)
  SELECT client_id, 'round', type, profile_id, substr(created_at, 1, 10), count(*)
  FROM round_types GROUP BY client_id, type, profile_id, substr(created_at, 1, 10);
INSERT INTO ledger_counts (client_id, list, type, profile_id, day, n)
  SELECT client_id, 'transaction', type, profile_id, substr(created_at, 1, 10), count(*)
  FROM transactions GROUP BY client_id, type, profile_id, substr(created_at, 1, 10);

-- From now on the play loop's inserts keep them: each trigger runs inside the writer's statement,
-- so a rolled-back round takes its counts with it. The upserts hold whatever conflict clause the
-- writer's INSERT has. (Each ledger INSERT now needs a statement journal: database.ts keeps temp
-- files in memory, which halves what these triggers cost; see bench/ledger-writes.ts.)
CREATE TRIGGER rounds_counted AFTER INSERT ON rounds BEGIN
  INSERT INTO ledger_counts (client_id, list, type, profile_id, day, n)
  VALUES (NEW.client_id, 'round', '', NEW.profile_id, substr(NEW.created_at, 1, 10), 1)
  ON CONFLICT (client_id, list, type, profile_id, day) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER transactions_counted AFTER INSERT ON transactions BEGIN
  INSERT INTO ledger_counts (client_id, list, type, profile_id, day, n)
  VALUES (NEW.client_id, 'transaction', NEW.type, NEW.profile_id, substr(NEW.created_at, 1, 10), 1)
  ON CONFLICT (client_id, list, type, profile_id, day) DO UPDATE SET n = n + 1;
  INSERT INTO round_types (client_id, type, created_at, round_id, profile_id)
  SELECT r.client_id, NEW.type, r.created_at, r.id, r.profile_id FROM rounds r WHERE r.id = NEW.round_id
  ON CONFLICT DO NOTHING;
END;

CREATE TRIGGER round_types_counted AFTER INSERT ON round_types BEGIN
  INSERT INTO ledger_counts (client_id, list, type, profile_id, day, n)
  VALUES (NEW.client_id, 'round', NEW.type, NEW.profile_id, substr(NEW.created_at, 1, 10), 1)
  ON CONFLICT (client_id, list, type, profile_id, day) DO UPDATE SET n = n + 1;
END;

-- The ledger is written once; a deleted row (only tests tampering with it do that) is uncounted.
CREATE TRIGGER rounds_uncounted AFTER DELETE ON rounds BEGIN
  UPDATE ledger_counts SET n = n - 1
  WHERE client_id = OLD.client_id AND list = 'round' AND type = '' AND profile_id = OLD.profile_id
    AND day = substr(OLD.created_at, 1, 10);
  DELETE FROM round_types
  WHERE client_id = OLD.client_id AND type IN ('bet', 'prize', 'rollback', 'deposit')
    AND created_at = OLD.created_at AND round_id = OLD.id;
END;

CREATE TRIGGER transactions_uncounted AFTER DELETE ON transactions BEGIN
  UPDATE ledger_counts SET n = n - 1
  WHERE client_id = OLD.client_id AND list = 'transaction' AND type = OLD.type
    AND profile_id = OLD.profile_id AND day = substr(OLD.created_at, 1, 10);
  DELETE FROM round_types
  WHERE round_id = OLD.round_id AND type = OLD.type
    AND client_id = (SELECT client_id FROM rounds WHERE id = OLD.round_id)
    AND created_at = (SELECT created_at FROM rounds WHERE id = OLD.round_id)
    AND NOT EXISTS (SELECT 1 FROM transactions x WHERE x.round_id = OLD.round_id AND x.type = OLD.type);
END;

CREATE TRIGGER round_types_uncounted AFTER DELETE ON round_types BEGIN
  UPDATE ledger_counts SET n = n - 1
  WHERE client_id = OLD.client_id AND list = 'round' AND type = OLD.type AND profile_id = OLD.profile_id
    AND day = substr(OLD.created_at, 1, 10);
END;

-- What the counts and round_types are keyed on never changes: a round or transaction keeps its
-- client, profile, round, type and time. Changing one is a bug, refused rather than miscounted.
CREATE TRIGGER rounds_keys_fixed BEFORE UPDATE OF client_id, profile_id, created_at ON rounds
WHEN NEW.client_id IS NOT OLD.client_id OR NEW.profile_id IS NOT OLD.profile_id
  OR NEW.created_at IS NOT OLD.created_at
BEGIN
  SELECT RAISE(ABORT, 'a round keeps its client, profile and created_at');
END;

CREATE TRIGGER transactions_keys_fixed
BEFORE UPDATE OF client_id, profile_id, round_id, type, created_at ON transactions
WHEN NEW.client_id IS NOT OLD.client_id OR NEW.profile_id IS NOT OLD.profile_id
  OR NEW.round_id IS NOT OLD.round_id OR NEW.type IS NOT OLD.type OR NEW.created_at IS NOT OLD.created_at
BEGIN
  SELECT RAISE(ABORT, 'a transaction keeps its client, profile, round, type and created_at');
END;
