-- Recording a webhook attempt counts and closes the event's earlier attempts: without this index
-- each lookup walked the webhook's whole delivery log (quadratic in deliveries; issue 7 profile).
CREATE INDEX webhook_deliveries_by_event ON webhook_deliveries(event_id);
