-- Ticket draws by blocks (issue 13, docs/store.md): a process takes a block of a pool's draw indexes
-- [first_index, end_index) from the pool's row in a short unit and hands them out itself, so buys
-- do not all write the pool's row. `allocated` is the first index in no block yet; `draws` counts
-- the tickets of the blocks closed (every index drawn by a round), the pool's total once it ends.
ALTER TABLE pools ADD COLUMN allocated INTEGER NOT NULL DEFAULT 0;
UPDATE pools SET allocated = draws;

-- A block still open: held by `owner` until `expires_at`, then another process may take it over.
CREATE TABLE pool_blocks (
  pool_id     TEXT NOT NULL REFERENCES pools(id),
  first_index INTEGER NOT NULL,
  end_index   INTEGER NOT NULL CHECK (end_index > first_index),
  owner       TEXT NOT NULL,
  expires_at  TEXT NOT NULL,
  PRIMARY KEY (pool_id, first_index)
) STRICT;
CREATE INDEX pool_blocks_by_expiry ON pool_blocks(pool_id, expires_at);
