/**
 * What anyone can check once a pool's seed is published: the seed matches the commitment, the
 * whole pool re-derived from it holds exactly the promised winners, and every recorded draw got
 * the level the seed dictates. Bad input is reported in the result, never thrown.
 */
import { LEVEL_COUNT } from '../models.ts';
import { permute } from './feistel.ts';
import { createPool, levelOfTicket, poolCommitment, seedFromHex, type TicketPool } from './ticket-pool.ts';

export const MAX_LISTED_MISMATCHES = 100;

export interface RecordedDraw {
  drawIndex: number;
  level: number;
}

export interface DrawMismatch {
  drawIndex: number;
  /** The level the seed gives; null when drawIndex is not a draw index of this pool. */
  expected: number | null;
  recorded: number;
  /** 'duplicate': the log draws this index again, though draws are without replacement. */
  reason: 'level' | 'out-of-range' | 'duplicate';
}

export interface PoolVerification {
  ok: boolean;
  commitmentMatches: boolean;
  /** Tickets of each level in the re-derived pool; index 0 = losing. Empty if it could not be derived. */
  levelCounts: number[];
  countsMatch: boolean;
  /** The first MAX_LISTED_MISMATCHES problems in the draw log. */
  mismatches: DrawMismatch[];
  /** All problems in the draw log, listed or not. */
  mismatchCount: number;
  drawsChecked: number;
  /** Why the pool could not be derived (bad seed hex, sampling or winners); null otherwise. */
  error: string | null;
}

/** Verifies a pool and its whole draw log at once (see startPoolVerification for a log read in pages). */
export function verifyPool(
  seedHex: string,
  commitmentHex: string,
  sampling: number,
  winners: readonly number[],
  draws: Iterable<RecordedDraw> = [],
): PoolVerification {
  const verifier = startPoolVerification(seedHex, commitmentHex, sampling, winners);
  for (const draw of draws) verifier.check(draw);
  return verifier.result();
}

/** A verification fed one recorded draw at a time, so a log of millions is never held in memory. */
export interface PoolVerifier {
  check(draw: RecordedDraw): void;
  result(): PoolVerification;
}

/**
 * Derives the pool from the published seed and counts its levels up front; then each recorded
 * draw is checked as it is read. The same verdict as `verifyPool`, for a log read in pages.
 */
export function startPoolVerification(
  seedHex: string,
  commitmentHex: string,
  sampling: number,
  winners: readonly number[],
): PoolVerifier {
  let pool: TicketPool;
  let commitmentMatches = false;
  try {
    const seed = seedFromHex(seedHex);
    commitmentMatches =
      typeof commitmentHex === 'string' && poolCommitment(seed) === commitmentHex.toLowerCase();
    pool = createPool(seed, sampling, winners);
  } catch (error) {
    const failed: PoolVerification = {
      ok: false,
      commitmentMatches,
      levelCounts: [],
      countsMatch: false,
      mismatches: [],
      mismatchCount: 0,
      drawsChecked: 0,
      error: error instanceof Error ? error.message : String(error),
    };
    return { check: () => {}, result: () => failed };
  }

  const levelCounts = countLevels(pool);
  let countsMatch = levelCounts[0] === sampling - (pool.levelEnds[LEVEL_COUNT - 1] as number);
  for (let level = 1; level <= LEVEL_COUNT; level++) {
    if (levelCounts[level] !== pool.winners[level - 1]) countsMatch = false;
  }
  const draws = createDrawCheck(pool);
  return {
    check: draws.check,
    result() {
      const { mismatches, mismatchCount, drawsChecked } = draws;
      return {
        ok: commitmentMatches && countsMatch && mismatchCount() === 0,
        commitmentMatches,
        levelCounts,
        countsMatch,
        mismatches: [...mismatches],
        mismatchCount: mismatchCount(),
        drawsChecked: drawsChecked(),
        error: null,
      };
    },
  };
}

/** Every draw index of the pool, counted by level. The hot loop: no allocation per draw. */
function countLevels(pool: TicketPool): number[] {
  const { permutation, levelEnds, sampling } = pool;
  const counts = new Float64Array(LEVEL_COUNT + 1);
  for (let i = 0; i < sampling; i++) {
    const level = levelOfTicket(levelEnds, permute(permutation, i));
    counts[level] = (counts[level] as number) + 1;
  }
  return Array.from(counts);
}

function createDrawCheck(pool: TicketPool) {
  const mismatches: DrawMismatch[] = [];
  let mismatchCount = 0;
  let drawsChecked = 0;
  let seen: Uint8Array | undefined; // one bit per draw index, allocated on the first draw
  const report = (mismatch: DrawMismatch): void => {
    mismatchCount++;
    if (mismatches.length < MAX_LISTED_MISMATCHES) mismatches.push(mismatch);
  };
  return {
    mismatches: mismatches as readonly DrawMismatch[],
    mismatchCount: () => mismatchCount,
    drawsChecked: () => drawsChecked,
    check({ drawIndex, level: recorded }: RecordedDraw): void {
      drawsChecked++;
      if (!Number.isInteger(drawIndex) || drawIndex < 0 || drawIndex >= pool.sampling) {
        report({ drawIndex, expected: null, recorded, reason: 'out-of-range' });
        return;
      }
      seen ??= new Uint8Array(Math.ceil(pool.sampling / 8));
      const expected = levelOfTicket(pool.levelEnds, permute(pool.permutation, drawIndex));
      const byte = drawIndex >>> 3;
      const bit = 1 << (drawIndex & 7);
      if (((seen[byte] as number) & bit) !== 0) {
        report({ drawIndex, expected, recorded, reason: 'duplicate' });
        return;
      }
      seen[byte] = (seen[byte] as number) | bit;
      if (recorded !== expected) report({ drawIndex, expected, recorded, reason: 'level' });
    },
  };
}
