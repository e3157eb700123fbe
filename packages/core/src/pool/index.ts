export { FEISTEL_ROUNDS, type Permutation, POOL_DOMAIN_LABEL, SEED_BYTES } from './feistel.ts';
export {
  createPool,
  levelOfTicket,
  poolCommitment,
  seedFromHex,
  seedToHex,
  type TicketPool,
  ticketAt,
  ticketNumberAt,
} from './ticket-pool.ts';
export {
  type DrawMismatch,
  MAX_LISTED_MISMATCHES,
  type PoolVerification,
  type PoolVerifier,
  type RecordedDraw,
  startPoolVerification,
  verifyPool,
} from './verify-pool.ts';
