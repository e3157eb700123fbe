-- Multi-currency profiles (docs/contract.md §3): a profile's wallet may hold several currencies, and a
-- player may play games of several of them, so balances are kept per currency.

-- The currencies a profile's games may be priced in, as a JSON array; NULL = any ISO 4217 code.
-- `currency` stays: the profile's default currency (what GET /v1/user's `balance` is in).
ALTER TABLE profiles ADD COLUMN currencies TEXT;

-- The last balance the wallet reported for a player, per currency. players.balance_minor keeps the
-- one in the profile's default currency (the figure GET /v1/user has always shown).
CREATE TABLE player_balances (
  player_id     TEXT NOT NULL REFERENCES players(id),
  currency      TEXT NOT NULL,
  balance_minor INTEGER NOT NULL,
  PRIMARY KEY (player_id, currency)
) STRICT, WITHOUT ROWID;
INSERT INTO player_balances (player_id, currency, balance_minor)
  SELECT p.id, pr.currency, p.balance_minor FROM players p JOIN profiles pr ON pr.id = p.profile_id;

-- The demo wallet keeps one account per player and currency; existing accounts are in their
-- profile's currency, the only one a demo profile could play until now.
CREATE TABLE demo_wallet_accounts_by_currency (
  player_id     TEXT NOT NULL REFERENCES players(id),
  currency      TEXT NOT NULL,
  balance_minor INTEGER NOT NULL,
  PRIMARY KEY (player_id, currency)
) STRICT, WITHOUT ROWID;
INSERT INTO demo_wallet_accounts_by_currency (player_id, currency, balance_minor)
  SELECT a.player_id, pr.currency, a.balance_minor
  FROM demo_wallet_accounts a JOIN players p ON p.id = a.player_id JOIN profiles pr ON pr.id = p.profile_id;
DROP TABLE demo_wallet_accounts;
ALTER TABLE demo_wallet_accounts_by_currency RENAME TO demo_wallet_accounts;

-- The ledger's pair rule (docs/contract.md §6, docs/reconciliation.md), for rounds voided before it: a bet
-- without a definite answer whose rollback the wallet confirmed is counted with it (both
-- completed), so the completed transactions of those rounds net to zero as the wallet's moves do.
-- (Here, not in a file of its own: this migration's number was the one free for this change.)
UPDATE transactions SET status = 'completed', completed_at = r.completed_at
FROM (SELECT original_transaction_id AS bet_id, completed_at FROM transactions
      WHERE type = 'rollback' AND status = 'completed' AND original_transaction_id IS NOT NULL) r
WHERE transactions.id = r.bet_id AND transactions.type = 'bet' AND transactions.status = 'failed';
