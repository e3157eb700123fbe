-- Issue 23: no shared counter row is written in a round's unit. Migration 003's triggers upserted a
-- ledger_counts row (per client, profile and day) at every INSERT into rounds and transactions:
-- one row that every round of a client and day wrote, in the buy's unit, the prize's and every
-- rollback's. The lists' totals now come from per-day counts folded in batches off the round's
-- path (ledger-counts.ts), the same design as PostgreSQL's migration 007, plus a count of the
-- rows the fold has not reached. Here the fold's watermark is the rows' rowid, not their time:
-- SQLite has one writer at a time, so a row committed after a fold has a larger rowid than every
-- row the fold saw, whatever its created_at.
DROP TRIGGER rounds_counted;
DROP TRIGGER transactions_counted;
DROP TRIGGER round_types_counted;
DROP TRIGGER rounds_uncounted;
DROP TRIGGER transactions_uncounted;
DROP TRIGGER round_types_uncounted;
DROP TABLE ledger_counts;

-- round_types stays: the round list's type filter pages through it. Its rows are the round's own
-- (keyed by the round), never a row other rounds write; the same triggers keep it, minus the counts.
CREATE TRIGGER transactions_typed AFTER INSERT ON transactions BEGIN
  INSERT INTO round_types (client_id, type, created_at, round_id, profile_id)
  SELECT r.client_id, NEW.type, r.created_at, r.id, r.profile_id FROM rounds r WHERE r.id = NEW.round_id
  ON CONFLICT DO NOTHING;
END;

CREATE TRIGGER rounds_untyped AFTER DELETE ON rounds BEGIN
  DELETE FROM round_types
  WHERE client_id = OLD.client_id AND type IN ('bet', 'prize', 'rollback', 'deposit')
    AND created_at = OLD.created_at AND round_id = OLD.id;
END;

CREATE TRIGGER transactions_untyped AFTER DELETE ON transactions BEGIN
  DELETE FROM round_types
  WHERE round_id = OLD.round_id AND type = OLD.type
    AND client_id = (SELECT client_id FROM rounds WHERE id = OLD.round_id)
    AND created_at = (SELECT created_at FROM rounds WHERE id = OLD.round_id)
    AND NOT EXISTS (SELECT 1 FROM transactions x WHERE x.round_id = OLD.round_id AND x.type = OLD.type);
END;

-- The rows folded so far, per list, client, UTC day of created_at ('2026-11-25'), profile and, for
-- transactions, type ('' for rounds). Days, not PostgreSQL's hours: the rowid watermark needs no
-- margin of time, and the API's date filters are whole days (an hour's buckets made the whole
-- ledger's total a sum of 43,000 rows on the bench's 90 days).
CREATE TABLE ledger_day_counts (
  list       TEXT NOT NULL CHECK (list IN ('round', 'transaction')),
  client_id  TEXT NOT NULL,
  day        TEXT NOT NULL,
  profile_id TEXT NOT NULL,
  type       TEXT NOT NULL,
  n          INTEGER NOT NULL,
  PRIMARY KEY (list, client_id, day, profile_id, type)
) STRICT, WITHOUT ROWID;

-- A total sums the buckets of its range: a type's or a profile's through an index of their own
-- that holds n.
CREATE INDEX ledger_day_counts_by_type ON ledger_day_counts(list, client_id, type, day, profile_id, n);
CREATE INDEX ledger_day_counts_by_profile ON ledger_day_counts(list, client_id, profile_id, type, day, n);

-- Per list, the fold's watermark: every row with a rowid up to it is in ledger_day_counts.
CREATE TABLE ledger_count_folds (
  list         TEXT PRIMARY KEY CHECK (list IN ('round', 'transaction')),
  folded_rowid INTEGER NOT NULL
) STRICT;

-- What the ledger holds already, folded now (1M rounds in seconds, once).
INSERT INTO ledger_day_counts (list, client_id, day, profile_id, type, n)
  SELECT 'round', client_id, substr(created_at, 1, 10), profile_id, '', count(*)
  FROM rounds GROUP BY client_id, substr(created_at, 1, 10), profile_id;
INSERT INTO ledger_day_counts (list, client_id, day, profile_id, type, n)
  SELECT 'transaction', client_id, substr(created_at, 1, 10), profile_id, type, count(*)
  FROM transactions GROUP BY client_id, substr(created_at, 1, 10), profile_id, type;
INSERT INTO ledger_count_folds (list, folded_rowid) VALUES
  ('round', (SELECT coalesce(max(rowid), 0) FROM rounds)),
  ('transaction', (SELECT coalesce(max(rowid), 0) FROM transactions));

-- The ledger is written once; only tests tampering with it delete. A deleted row the fold had
-- counted is uncounted, and the watermark never stays above the largest rowid: SQLite gives a new
-- row the largest rowid + 1, which must not pass for one the fold saw.
CREATE TRIGGER rounds_unfolded AFTER DELETE ON rounds BEGIN
  UPDATE ledger_day_counts SET n = n - 1
  WHERE list = 'round' AND client_id = OLD.client_id AND day = substr(OLD.created_at, 1, 10)
    AND profile_id = OLD.profile_id AND type = ''
    AND OLD.rowid <= (SELECT folded_rowid FROM ledger_count_folds WHERE list = 'round');
  UPDATE ledger_count_folds SET folded_rowid = (SELECT coalesce(max(rowid), 0) FROM rounds)
  WHERE list = 'round' AND folded_rowid > (SELECT coalesce(max(rowid), 0) FROM rounds);
END;

CREATE TRIGGER transactions_unfolded AFTER DELETE ON transactions BEGIN
  UPDATE ledger_day_counts SET n = n - 1
  WHERE list = 'transaction' AND client_id = OLD.client_id
    AND day = substr(OLD.created_at, 1, 10) AND profile_id = OLD.profile_id AND type = OLD.type
    AND OLD.rowid <= (SELECT folded_rowid FROM ledger_count_folds WHERE list = 'transaction');
  UPDATE ledger_count_folds SET folded_rowid = (SELECT coalesce(max(rowid), 0) FROM transactions)
  WHERE list = 'transaction' AND folded_rowid > (SELECT coalesce(max(rowid), 0) FROM transactions);
END;
