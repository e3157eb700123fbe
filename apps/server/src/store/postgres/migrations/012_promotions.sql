-- Free cards (issue 26, docs/promotions.md): a promotion grants players cards of one game version.
-- Its status is derived from these times and the clock (core promotionStatus), never stored, so it
-- cannot drift from the rule. The same tables and columns as SQLite's 016 (migrate-to-postgres copies by name).
CREATE TABLE promotions (
  id               TEXT COLLATE "C" PRIMARY KEY,
  client_id        TEXT COLLATE "C" NOT NULL REFERENCES api_clients(id),
  profile_id       TEXT COLLATE "C" NOT NULL REFERENCES profiles(id),
  game_id          TEXT COLLATE "C" NOT NULL REFERENCES games(id),
  name             TEXT NOT NULL,
  cards_per_player INTEGER NOT NULL CHECK (cards_per_player > 0),
  start_at         TEXT COLLATE "C" NOT NULL,
  expire_at        TEXT COLLATE "C" NOT NULL,
  cancelled_at     TEXT COLLATE "C",
  created_at       TEXT COLLATE "C" NOT NULL,
  CHECK (expire_at > start_at)
);
-- GET /v1/promotion, newest first: the client's list, or one profile's.
CREATE INDEX promotions_by_client ON promotions(client_id, created_at, id);
CREATE INDEX promotions_by_profile ON promotions(profile_id, created_at, id);

-- One row per (promotion, player): the cards granted and how many a round opened with. `used` is
-- only moved by the buy that opens the round, in the same unit (docs/promotions.md, "used exactly once").
CREATE TABLE promotion_grants (
  promotion_id TEXT COLLATE "C" NOT NULL REFERENCES promotions(id),
  player_id    TEXT COLLATE "C" NOT NULL REFERENCES players(id),
  cards        INTEGER NOT NULL CHECK (cards > 0),
  used         INTEGER NOT NULL DEFAULT 0 CHECK (used >= 0 AND used <= cards),
  PRIMARY KEY (promotion_id, player_id)
);
-- A player's free cards (GET /v1/user/{userId}/free-cards, and the buy's choice later).
CREATE INDEX promotion_grants_by_player ON promotion_grants(player_id);

-- The promotion whose free card played the round; NULL for a bought card (and every round before).
ALTER TABLE rounds ADD COLUMN promotion_id TEXT COLLATE "C" REFERENCES promotions(id);
CREATE INDEX rounds_by_promotion ON rounds(promotion_id, created_at, id) WHERE promotion_id IS NOT NULL;
