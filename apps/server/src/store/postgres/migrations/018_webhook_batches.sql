-- Webhook deliveries in batches, as SQLite's 021_webhook_batches.sql (issue 35): a webhook's delivery
-- mode and each log row's batch id (NULL for a single delivery).
ALTER TABLE webhooks ADD COLUMN delivery_mode TEXT COLLATE "C" NOT NULL DEFAULT 'single'
  CHECK (delivery_mode IN ('single', 'batch'));
ALTER TABLE webhooks ADD COLUMN delivery_max_events INTEGER NOT NULL DEFAULT 100;
ALTER TABLE webhooks ADD COLUMN delivery_max_wait_ms INTEGER NOT NULL DEFAULT 250;
ALTER TABLE webhook_deliveries ADD COLUMN batch_id TEXT COLLATE "C";
