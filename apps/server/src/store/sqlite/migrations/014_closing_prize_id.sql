-- A won round whose prize was already pending at migration 013 (status `closing`, its prize written
-- under an id of its own before cut 6) gets that id as its fixed one, so that every live won round
-- has one: PostgreSQL's migration 010 guard wants it when the file is copied there.
UPDATE rounds SET prize_transaction_id = (
  SELECT t.id FROM transactions t WHERE t.round_id = rounds.id AND t.type = 'prize'
  ORDER BY t.created_at, t.id LIMIT 1
) WHERE status = 'closing' AND prize_transaction_id IS NULL;
