-- The lists' exact totals without counting every row (issue 23): the ledger's rows counted per
-- hour of created_at, per client, profile and (for transactions) type, folded in batches by the
-- lists' readers (ledger-counts.ts), never by a round's unit. A list's total adds the folded hours
-- its range covers and counts only the rows outside them: before its first whole hour, and from
-- where the fold stopped. `hour` is the bucket's start, as an ISO time like created_at.
CREATE TABLE ledger_hour_counts (
  list       TEXT COLLATE "C" NOT NULL CHECK (list IN ('round', 'transaction')),
  client_id  TEXT COLLATE "C" NOT NULL,
  hour       TEXT COLLATE "C" NOT NULL,
  profile_id TEXT COLLATE "C" NOT NULL,
  -- A transaction's type; '' for a round.
  type       TEXT COLLATE "C" NOT NULL,
  n          BIGINT NOT NULL,
  PRIMARY KEY (list, client_id, hour, profile_id, type)
);

-- Per list, where the fold stopped: every row created before it is in ledger_hour_counts.
CREATE TABLE ledger_count_folds (
  list          TEXT COLLATE "C" PRIMARY KEY CHECK (list IN ('round', 'transaction')),
  folded_before TEXT COLLATE "C" NOT NULL
);
