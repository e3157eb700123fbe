-- The play loop (docs/contract.md §5–§7): ticket pools, the round's card and ticket, wallet calls kept on
-- the transactions that carry them, the webhook outbox, and the built-in demo wallet.

-- A game version's pools, one after the other. The seed is sealed with the server key until the
-- pool ends; then it is published (seed_hex) so anyone can re-derive every ticket.
CREATE TABLE pools (
  id          TEXT PRIMARY KEY,
  game_id     TEXT NOT NULL REFERENCES games(id),
  number      INTEGER NOT NULL,
  sampling    INTEGER NOT NULL,
  seed_sealed TEXT NOT NULL,
  commitment  TEXT NOT NULL,
  draws       INTEGER NOT NULL DEFAULT 0,
  seed_hex    TEXT,
  started_at  TEXT NOT NULL,
  ended_at    TEXT,
  UNIQUE (game_id, number)
) STRICT;
CREATE UNIQUE INDEX pools_one_current ON pools(game_id) WHERE ended_at IS NULL;

-- Round states: pending (bet sent, no answer yet) → open (card shown) → closing (prize being paid)
-- → closed; or declined (the wallet refused the bet) / voided (no definite answer: rolled back).
ALTER TABLE rounds ADD COLUMN pool_id TEXT REFERENCES pools(id);
ALTER TABLE rounds ADD COLUMN draw_index INTEGER;
ALTER TABLE rounds ADD COLUMN level INTEGER;
ALTER TABLE rounds ADD COLUMN card_json TEXT;
ALTER TABLE rounds ADD COLUMN last_action_at TEXT;
ALTER TABLE rounds ADD COLUMN reconciliation INTEGER NOT NULL DEFAULT 0;
-- One round at a time per player: a second buy while one waits on the wallet or is open is refused.
CREATE UNIQUE INDEX rounds_one_live_per_player ON rounds(player_id) WHERE status IN ('pending', 'open', 'closing');
CREATE INDEX rounds_open_by_last_action ON rounds(status, last_action_at);
CREATE UNIQUE INDEX rounds_by_pool_draw ON rounds(pool_id, draw_index) WHERE pool_id IS NOT NULL;

-- Each wallet call is the transaction it moves, committed as pending before it is sent
-- (statuses: pending, completed, declined, failed). Retries are scheduled here.
ALTER TABLE transactions ADD COLUMN original_transaction_id TEXT;
ALTER TABLE transactions ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE transactions ADD COLUMN next_attempt_at TEXT;
ALTER TABLE transactions ADD COLUMN last_error TEXT;
ALTER TABLE transactions ADD COLUMN completed_at TEXT;
CREATE INDEX transactions_pending ON transactions(status, next_attempt_at) WHERE status = 'pending';

-- The webhook outbox: written in the round's transaction, one row per subscribed webhook, sent in
-- order (seq) per webhook by the dispatcher. status: queued, delivered, failed (gave up), dropped
-- (webhook disabled or deleted).
CREATE TABLE webhook_events (
  seq              INTEGER PRIMARY KEY AUTOINCREMENT,
  id               TEXT NOT NULL UNIQUE,
  webhook_id       TEXT NOT NULL REFERENCES webhooks(id),
  round_id         TEXT NOT NULL REFERENCES rounds(id),
  event_type       TEXT NOT NULL,
  payload          TEXT NOT NULL,
  status           TEXT NOT NULL,
  attempts         INTEGER NOT NULL DEFAULT 0,
  next_attempt_at  TEXT NOT NULL,
  first_failure_at TEXT,
  created_at       TEXT NOT NULL
) STRICT;
CREATE INDEX webhook_events_queue ON webhook_events(webhook_id, status, seq);

-- The built-in demo wallet of demo profiles: balances, and every call by transactionId so a
-- repeat gets the first answer (the same idempotency an operator's wallet must have).
CREATE TABLE demo_wallet_accounts (
  player_id     TEXT PRIMARY KEY REFERENCES players(id),
  balance_minor INTEGER NOT NULL
) STRICT;
CREATE TABLE demo_wallet_calls (
  transaction_id TEXT PRIMARY KEY,
  player_id      TEXT NOT NULL,
  kind           TEXT NOT NULL,
  amount_minor   INTEGER NOT NULL,
  answer         TEXT NOT NULL,
  created_at     TEXT NOT NULL
) STRICT;
