-- The pending wallet calls' queue in a table of its own (issue 34). transactions_pending indexed
-- next_attempt_at for the pending rows, so the bet's answer (status pending → completed) changed an
-- indexed column and a partial index's predicate: a non-HOT update, a new entry in each of the
-- table's eight other indexes, 11 WAL records. With no index on status or next_attempt_at, that
-- update is HOT (one record), given room on the row's page (fillfactor). The queue costs a row and
-- two index entries at the call's insert and a delete at its answer.
--
-- Kept by triggers, so every write of a transaction (whatever statement: the buy's, the retrier's,
-- the recovery's) keeps it exact: a row here for each pending transaction, at its next_attempt_at.
-- transactions stays what every reader reads (status, attempts, next_attempt_at, lease_owner); only
-- the due calls' read and the release at start go through this table (rounds-repo.ts). SQLite
-- keeps its partial index: there an index entry is no WAL record, and no update is HOT or not.
CREATE TABLE wallet_calls_due (
  transaction_id  TEXT COLLATE "C" PRIMARY KEY,
  -- As the transaction's: a pending call without one is never due (rounds-repo.ts dueTransactions).
  next_attempt_at TEXT COLLATE "C"
);
CREATE INDEX wallet_calls_due_by_time ON wallet_calls_due(next_attempt_at, transaction_id);
INSERT INTO wallet_calls_due (transaction_id, next_attempt_at)
  SELECT id, next_attempt_at FROM transactions WHERE status = 'pending';
DROP INDEX transactions_pending;

CREATE FUNCTION wallet_calls_due_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO wallet_calls_due (transaction_id, next_attempt_at) VALUES (NEW.id, NEW.next_attempt_at);
  RETURN NULL;
END $$;
CREATE TRIGGER transactions_due_added AFTER INSERT ON transactions
  FOR EACH ROW WHEN (NEW.status = 'pending') EXECUTE FUNCTION wallet_calls_due_added();

CREATE FUNCTION wallet_calls_due_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status = 'pending' THEN
    INSERT INTO wallet_calls_due (transaction_id, next_attempt_at) VALUES (NEW.id, NEW.next_attempt_at)
      ON CONFLICT (transaction_id) DO UPDATE SET next_attempt_at = excluded.next_attempt_at;
  ELSE
    DELETE FROM wallet_calls_due WHERE transaction_id = OLD.id;
  END IF;
  RETURN NULL;
END $$;
-- Only when the status or the time changes: the answer, a lease, a retry's schedule, the release.
CREATE TRIGGER transactions_due_changed AFTER UPDATE OF status, next_attempt_at ON transactions
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.next_attempt_at IS DISTINCT FROM NEW.next_attempt_at)
  EXECUTE FUNCTION wallet_calls_due_changed();

-- Room on each page for the answered version of the rows inserted there (HOT needs the same page).
ALTER TABLE transactions SET (fillfactor = 90);
