-- @socket.io/postgres-adapter carries pushes between instances with NOTIFY; a push over NOTIFY's
-- 8,000-byte limit (none of ours is, but the adapter decides) goes through this table instead.
CREATE TABLE socket_io_attachments (
  id         BIGSERIAL UNIQUE,
  created_at TIMESTAMPTZ DEFAULT NOW(),
  payload    BYTEA
);
