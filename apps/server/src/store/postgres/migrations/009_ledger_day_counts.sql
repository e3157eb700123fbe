-- The lists' exact totals, folded by default (issue 23). 007 folded per-hour counts up to a time
-- watermark, so a row committed more than an hour after its created_at was missed: exact only
-- under an assumption, hence off by default. Here the watermark is a transaction id: each row
-- keeps the id of the transaction that wrote it (written_xid), and a fold counts the rows written
-- by transactions that had all ended when it started (below its snapshot's xmin). Every such
-- transaction's rows are visible to the fold if it committed, whatever their created_at, and a
-- row written later has a larger written_xid, so a total (the folded days + the rows at or past
-- the watermark) is exact for any order of commits and any created_at. Details: ledger-counts.ts.
DROP TABLE ledger_hour_counts;
DROP TABLE ledger_count_folds;

-- A constant default first (no rewrite of a large table; the rows already written are below
-- every watermark, so the first fold counts them), then the writing transaction's id for new rows.
ALTER TABLE rounds ADD COLUMN written_xid xid8 NOT NULL DEFAULT '0';
ALTER TABLE rounds ALTER COLUMN written_xid SET DEFAULT pg_current_xact_id();
ALTER TABLE transactions ADD COLUMN written_xid xid8 NOT NULL DEFAULT '0';
ALTER TABLE transactions ALTER COLUMN written_xid SET DEFAULT pg_current_xact_id();
-- The rows past the watermark: the totals count them, the fold reads them.
CREATE INDEX rounds_by_written_xid ON rounds(written_xid);
CREATE INDEX transactions_by_written_xid ON transactions(written_xid);

-- Rounds by a transaction's type (the round list's `type` filter): a row per round and type, at
-- the round's created_at, added by a trigger when the first transaction of that type is inserted,
-- whichever statement inserts it (as SQLite's round_types, its migration 003). Before, the filter
-- probed every round of the range for such a transaction (1.1 s for the rounds with a rollback on
-- the bench's ledger). Derived from the transactions, so no foreign key (its check would cost
-- every insert a lookup more).
CREATE TABLE round_types (
  round_id    TEXT COLLATE "C" NOT NULL,
  type        TEXT COLLATE "C" NOT NULL,
  client_id   TEXT COLLATE "C" NOT NULL,
  profile_id  TEXT COLLATE "C" NOT NULL,
  -- The round's, not the transaction's: the list's dates are the rounds'.
  created_at  TEXT COLLATE "C" NOT NULL,
  written_xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
  PRIMARY KEY (round_id, type)
);
INSERT INTO round_types (round_id, type, client_id, profile_id, created_at, written_xid)
  SELECT DISTINCT t.round_id, t.type, r.client_id, r.profile_id, r.created_at, '0'::xid8
  FROM transactions t JOIN rounds r ON r.id = t.round_id;
CREATE INDEX round_types_by_type ON round_types(client_id, type, created_at, round_id);
CREATE INDEX round_types_by_profile ON round_types(client_id, profile_id, type, created_at, round_id);
CREATE INDEX round_types_by_written_xid ON round_types(written_xid);

CREATE FUNCTION round_types_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO round_types (round_id, type, client_id, profile_id, created_at)
    SELECT r.id, NEW.type, r.client_id, r.profile_id, r.created_at FROM rounds r WHERE r.id = NEW.round_id
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER transactions_round_types AFTER INSERT ON transactions
  FOR EACH ROW EXECUTE FUNCTION round_types_add();

-- What the counts and round_types are keyed on never changes (a fold counted the row where it
-- was): refused, as on SQLite. `UPDATE OF` fires only for statements that set these columns,
-- which no write of the service does, so the play loop's updates pay nothing for it.
CREATE FUNCTION ledger_keys_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'a ledger row''s client, profile, type and created_at never change (%)', TG_TABLE_NAME;
END $$;
CREATE TRIGGER rounds_keys_fixed BEFORE UPDATE OF client_id, profile_id, created_at ON rounds
  FOR EACH ROW WHEN (OLD.client_id IS DISTINCT FROM NEW.client_id OR OLD.profile_id IS DISTINCT FROM NEW.profile_id
    OR OLD.created_at IS DISTINCT FROM NEW.created_at)
  EXECUTE FUNCTION ledger_keys_fixed();
CREATE TRIGGER transactions_keys_fixed BEFORE UPDATE OF client_id, profile_id, type, created_at, round_id ON transactions
  FOR EACH ROW WHEN (OLD.client_id IS DISTINCT FROM NEW.client_id OR OLD.profile_id IS DISTINCT FROM NEW.profile_id
    OR OLD.type IS DISTINCT FROM NEW.type OR OLD.created_at IS DISTINCT FROM NEW.created_at
    OR OLD.round_id IS DISTINCT FROM NEW.round_id)
  EXECUTE FUNCTION ledger_keys_fixed();

-- The folded counts: rows per UTC day of created_at, per list, client, profile and type (a
-- transaction's type; for rounds '' for every round, or a type from round_types: the rounds
-- having a transaction of it). Days, as on SQLite: the watermark needs no margin, and the API's
-- date filters are whole days (the bench's 90 days of a client are 450 rounds' rows, not 10,800).
CREATE TABLE ledger_day_counts (
  list       TEXT COLLATE "C" NOT NULL CHECK (list IN ('round', 'transaction')),
  client_id  TEXT COLLATE "C" NOT NULL,
  day        TEXT COLLATE "C" NOT NULL,
  profile_id TEXT COLLATE "C" NOT NULL,
  type       TEXT COLLATE "C" NOT NULL,
  n          BIGINT NOT NULL,
  PRIMARY KEY (list, client_id, type, day, profile_id)
);
CREATE INDEX ledger_day_counts_by_profile ON ledger_day_counts(list, client_id, profile_id, type, day) INCLUDE (n);

-- Per table folded, the watermark: every row with a smaller written_xid is in ledger_day_counts.
CREATE TABLE ledger_count_folds (
  source      TEXT COLLATE "C" PRIMARY KEY CHECK (source IN ('rounds', 'transactions', 'round_types')),
  folded_xid  xid8 NOT NULL
);

-- The totals' plans need to know that few rows are past a watermark: statistics of the new
-- column now (on a large ledger, before autovacuum's first analyze, the planner would take a
-- third of the table for them and scan it).
ANALYZE rounds (written_xid);
ANALYZE transactions (written_xid);
ANALYZE round_types;
