-- A guard for an upgrade across cut 6 (docs/store.md "No rolling upgrade across cut 6"): an instance
-- older than migration 008 writes a won round's prize under an id of its own, pending, before it
-- sends it. Were it to close the round at the same moment as a newer instance (which sends the
-- round's fixed id first), the wallet would pay twice. Refusing that insert while the round is
-- still live rolls the older instance's unit back before it calls the wallet; the newer one pays.
-- A won round opened by an older instance has no fixed id: newer code sends `<round id>.prize`.
-- One whose prize was already pending at migration 008 (`closing`) keeps that prize's id.
UPDATE rounds SET prize_transaction_id = (
  SELECT t.id FROM transactions t WHERE t.round_id = rounds.id AND t.type = 'prize'
  ORDER BY t.created_at, t.id LIMIT 1
) WHERE status = 'closing' AND prize_transaction_id IS NULL;
CREATE FUNCTION prize_id_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  fixed TEXT;
BEGIN
  SELECT coalesce(prize_transaction_id, id || '.prize') INTO fixed
    FROM rounds WHERE id = NEW.round_id AND status IN ('open', 'closing');
  IF FOUND AND fixed <> NEW.id THEN
    RAISE EXCEPTION 'prize % of round % is not the round''s fixed prize id %', NEW.id, NEW.round_id, fixed
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER transactions_prize_id_fixed BEFORE INSERT ON transactions
  FOR EACH ROW WHEN (NEW.type = 'prize') EXECUTE FUNCTION prize_id_fixed();
