-- Rate-limit counters of the /auth routes (docs/contract.md §2), in the database so that every
-- process of an installation counts the same hits. One row per limiter and key (an IP, or a
-- digest of a credential with an IP); times are milliseconds since the epoch on the service clock.
CREATE TABLE rate_limit_counters (
  counter_key TEXT PRIMARY KEY,
  hits INTEGER NOT NULL CHECK (hits >= 0),
  reset_at INTEGER NOT NULL
) STRICT;

CREATE INDEX rate_limit_counters_by_reset ON rate_limit_counters(reset_at);
