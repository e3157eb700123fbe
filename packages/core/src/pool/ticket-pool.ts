/**
 * A game version's ticket pool: `sampling` tickets, exactly winners[level − 1] of each level 1..8,
 * the rest losing (level 0), drawn without replacement in an order fixed by a secret 32-byte seed.
 *
 * Draw index i (0-based) yields ticket number t = permute(i) (see feistel.ts). Ticket numbers are
 * assigned top prize first: [0, w8) are level 8, the next w7 are level 7, …, the next w1 are
 * level 1, and every ticket number from w8 + … + w1 on is losing.
 *
 * The commitment published when the pool starts is the lowercase hex SHA-256 of the 32 seed
 * bytes; the seed itself is published when the pool ends.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { LADDER_LIMITS } from '../ladder/ladder-limits.ts';
import { LEVEL_COUNT } from '../models.ts';
import { createPermutation, type Permutation, permute, SEED_BYTES } from './feistel.ts';

export interface TicketPool {
  readonly sampling: number;
  /** winners[0] is level 1 … winners[7] is level 8. */
  readonly winners: readonly number[];
  readonly commitment: string;
  readonly permutation: Permutation;
  /**
   * levelEnds[k] is the first ticket number past level 8 − k, so level 8 − k holds
   * [levelEnds[k − 1], levelEnds[k]); levelEnds[7] is the number of winning tickets.
   */
  readonly levelEnds: Int32Array;
}

export function createPool(seed: Uint8Array, sampling: number, winners: readonly number[]): TicketPool {
  assertSeed(seed);
  if (
    !Number.isInteger(sampling) ||
    sampling < LADDER_LIMITS.sampling.min ||
    sampling > LADDER_LIMITS.sampling.max
  ) {
    throw new RangeError(
      `sampling must be an integer in [${LADDER_LIMITS.sampling.min}, ${LADDER_LIMITS.sampling.max}], got ${sampling}`,
    );
  }
  const levelEnds = levelEndsFor(winners, sampling);
  return {
    sampling,
    winners: Object.freeze(winners.slice()),
    commitment: poolCommitment(seed),
    permutation: createPermutation(seed, sampling),
    levelEnds,
  };
}

/** Checks the winner counts and returns the cumulative ends, top level first. */
function levelEndsFor(winners: readonly number[], sampling: number): Int32Array {
  if (!Array.isArray(winners) || winners.length !== LEVEL_COUNT) {
    throw new RangeError(`winners must list ${LEVEL_COUNT} counts (level 1 first)`);
  }
  const ends = new Int32Array(LEVEL_COUNT);
  let total = 0;
  for (let k = 0; k < LEVEL_COUNT; k++) {
    const level = LEVEL_COUNT - k;
    const count = winners[level - 1];
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) {
      throw new RangeError(`winners of level ${level} must be a non-negative integer, got ${count}`);
    }
    total += count;
    if (total > sampling) {
      throw new RangeError(`winners add up to more than sampling (${sampling})`);
    }
    ends[k] = total;
  }
  return ends;
}

/** The ticket number drawn at drawIndex (0-based). */
export function ticketNumberAt(pool: TicketPool, drawIndex: number): number {
  assertDrawIndex(pool, drawIndex);
  return permute(pool.permutation, drawIndex);
}

/** The level (0 = losing) of the ticket drawn at drawIndex (0-based). */
export function ticketAt(pool: TicketPool, drawIndex: number): number {
  assertDrawIndex(pool, drawIndex);
  return levelOfTicket(pool.levelEnds, permute(pool.permutation, drawIndex));
}

/** The level of ticket number t, given the pool's levelEnds. */
export function levelOfTicket(levelEnds: Int32Array, ticketNumber: number): number {
  // Most tickets lose: one comparison settles them.
  if (ticketNumber >= (levelEnds[LEVEL_COUNT - 1] as number)) return 0;
  let k = 0;
  while (ticketNumber >= (levelEnds[k] as number)) k++;
  return LEVEL_COUNT - k;
}

/** Lowercase hex SHA-256 of the 32 seed bytes, published when the pool starts. */
export function poolCommitment(seed: Uint8Array): string {
  assertSeed(seed);
  return bytesToHex(sha256(seed));
}

export function seedToHex(seed: Uint8Array): string {
  assertSeed(seed);
  return bytesToHex(seed);
}

export function seedFromHex(hex: string): Uint8Array {
  if (typeof hex !== 'string' || !/^[0-9a-fA-F]{64}$/.test(hex)) {
    throw new RangeError('seed hex must be exactly 64 hexadecimal characters');
  }
  return hexToBytes(hex.toLowerCase());
}

function assertSeed(seed: Uint8Array): void {
  if (!(seed instanceof Uint8Array) || seed.length !== SEED_BYTES) {
    throw new RangeError(`seed must be ${SEED_BYTES} bytes`);
  }
}

function assertDrawIndex(pool: TicketPool, drawIndex: number): void {
  if (!Number.isInteger(drawIndex) || drawIndex < 0 || drawIndex >= pool.sampling) {
    throw new RangeError(`drawIndex must be an integer in [0, ${pool.sampling}), got ${drawIndex}`);
  }
}
