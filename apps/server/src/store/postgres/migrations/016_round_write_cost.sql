-- What a round writes to the WAL (issue 34, docs/benchmarks.md "PostgreSQL at its floor"). Every
-- index entry, row lock and non-HOT update is a WAL record; a round wrote 108 of them.

-- Foreign keys of the round's tables. Each check locks the parent row (FOR KEY SHARE): a WAL record
-- per key, and on the rows every round shares (the client, profile, game, pool, webhook) a new
-- MultiXact each time, since a hundred rounds lock them at once. The service writes these ids from
-- the rows its unit read (session, player, game, round), and it never deletes a parent row (no
-- DELETE of clients, profiles, games, players, sessions, pools, webhooks, rounds or transactions),
-- so the checks never refuse anything. SQLite keeps them: there a check is an index lookup, no
-- write. round_types (009) has none for the same reason.
ALTER TABLE rounds
  DROP CONSTRAINT rounds_client_id_fkey,
  DROP CONSTRAINT rounds_profile_id_fkey,
  DROP CONSTRAINT rounds_game_id_fkey,
  DROP CONSTRAINT rounds_player_id_fkey,
  DROP CONSTRAINT rounds_session_id_fkey,
  DROP CONSTRAINT rounds_pool_id_fkey,
  DROP CONSTRAINT rounds_promotion_id_fkey;
ALTER TABLE transactions
  DROP CONSTRAINT transactions_round_id_fkey,
  DROP CONSTRAINT transactions_client_id_fkey,
  DROP CONSTRAINT transactions_profile_id_fkey,
  DROP CONSTRAINT transactions_player_id_fkey;
ALTER TABLE wallet_call_attempts
  DROP CONSTRAINT wallet_call_attempts_round_id_fkey,
  DROP CONSTRAINT wallet_call_attempts_transaction_id_fkey;
ALTER TABLE webhook_events
  DROP CONSTRAINT webhook_events_round_id_fkey,
  DROP CONSTRAINT webhook_events_webhook_id_fkey;
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_webhook_id_fkey;
ALTER TABLE player_balances DROP CONSTRAINT player_balances_player_id_fkey;

-- The idle close's index held every round (a pending round's entry at its insert, a new one at each
-- status change); only open rounds are read from it (rounds-repo.ts idleOpenRounds).
DROP INDEX rounds_open_by_last_action;
CREATE INDEX rounds_open_by_last_action ON rounds(last_action_at) WHERE status = 'open';

-- The outbox's queue index held every event, delivered ones too (a new entry at the delivered
-- update); every read of it asks for queued events (outbox-repo.ts, ops-repo.ts).
DROP INDEX webhook_events_queue;
CREATE INDEX webhook_events_queue ON webhook_events(webhook_id, seq) WHERE status = 'queued';
