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

export function verifyPool(
  seedHex: string,
  commitmentHex: string,
  sampling: number,
  winners: readonly number[],
  draws?: Iterable<RecordedDraw>,
): PoolVerification {
  let pool: TicketPool;
  let commitmentMatches = false;
  try {
    const seed = seedFromHex(seedHex);
    commitmentMatches =
      typeof commitmentHex === 'string' && poolCommitment(seed) === commitmentHex.toLowerCase();
    pool = createPool(seed, sampling, winners);
  } catch (error) {
    return {
      ok: false,
      commitmentMatches,
      levelCounts: [],
      countsMatch: false,
      mismatches: [],
      mismatchCount: 0,
      drawsChecked: 0,
      error: error instanceof Error ? error.message : String(error),
    };
  }

  const levelCounts = countLevels(pool);
  let countsMatch = levelCounts[0] === sampling - (pool.levelEnds[LEVEL_COUNT - 1] as number);
  for (let level = 1; level <= LEVEL_COUNT; level++) {
    if (levelCounts[level] !== pool.winners[level - 1]) countsMatch = false;
  }

  const { mismatches, mismatchCount, drawsChecked } = checkDraws(pool, draws ?? []);
  return {
    ok: commitmentMatches && countsMatch && mismatchCount === 0,
    commitmentMatches,
    levelCounts,
    countsMatch,
    mismatches,
    mismatchCount,
    drawsChecked,
    error: null,
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

function checkDraws(
  pool: TicketPool,
  draws: Iterable<RecordedDraw>,
): { mismatches: DrawMismatch[]; mismatchCount: number; drawsChecked: number } {
  const mismatches: DrawMismatch[] = [];
  let mismatchCount = 0;
  let drawsChecked = 0;
  let seen: Uint8Array | undefined; // one bit per draw index, allocated on the first draw
  const report = (mismatch: DrawMismatch): void => {
    mismatchCount++;
    if (mismatches.length < MAX_LISTED_MISMATCHES) mismatches.push(mismatch);
  };

  for (const { drawIndex, level: recorded } of draws) {
    drawsChecked++;
    if (!Number.isInteger(drawIndex) || drawIndex < 0 || drawIndex >= pool.sampling) {
      report({ drawIndex, expected: null, recorded, reason: 'out-of-range' });
      continue;
    }
    seen ??= new Uint8Array(Math.ceil(pool.sampling / 8));
    const expected = levelOfTicket(pool.levelEnds, permute(pool.permutation, drawIndex));
    const byte = drawIndex >>> 3;
    const bit = 1 << (drawIndex & 7);
    if (((seen[byte] as number) & bit) !== 0) {
      report({ drawIndex, expected, recorded, reason: 'duplicate' });
      continue;
    }
    seen[byte] = (seen[byte] as number) | bit;
    if (recorded !== expected) report({ drawIndex, expected, recorded, reason: 'level' });
  }
  return { mismatches, mismatchCount, drawsChecked };
}
