-- As SQLite's 010_delivery_payload_once.sql: a delivery-log row reads its payload from its event
-- (webhook_events.payload) instead of keeping a copy of it per attempt.
ALTER TABLE webhook_deliveries DROP COLUMN payload;
