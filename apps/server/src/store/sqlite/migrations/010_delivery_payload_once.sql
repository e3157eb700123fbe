-- A delivery-log row reads its payload from its event (webhook_events.payload) instead of keeping
-- a copy: each event's body was stored once per attempt as well as in the outbox (issue 12). Every
-- row the service wrote came from an outbox event, which is never deleted.
ALTER TABLE webhook_deliveries DROP COLUMN payload;
