-- Webhook deliveries in batches (issue 35, docs/webhooks.md "Batches"): a webhook's delivery mode,
-- set at registration and never changed (delete and register again), and each log row's batch (the
-- batch's own webhook-id; NULL for a single delivery). PostgreSQL: 018.
ALTER TABLE webhooks ADD COLUMN delivery_mode TEXT NOT NULL DEFAULT 'single'
  CHECK (delivery_mode IN ('single', 'batch'));
ALTER TABLE webhooks ADD COLUMN delivery_max_events INTEGER NOT NULL DEFAULT 100;
ALTER TABLE webhooks ADD COLUMN delivery_max_wait_ms INTEGER NOT NULL DEFAULT 250;
ALTER TABLE webhook_deliveries ADD COLUMN batch_id TEXT;
