-- A won round's prize transactionId, fixed when the round opens (issue 23, docs/store.md cut 6): the
-- reveal sends the prize before it writes anything, so every sender (two tabs, the idle close, a
-- restart after a crash, another instance) must send it under this one id, the wallet's idempotency key.
ALTER TABLE rounds ADD COLUMN prize_transaction_id TEXT COLLATE "C";
-- A won round open at the upgrade: its id is fixed now (ids are opaque, docs/contract.md §1).
UPDATE rounds SET prize_transaction_id = id || '.prize' WHERE status = 'open' AND prize_minor > 0;
