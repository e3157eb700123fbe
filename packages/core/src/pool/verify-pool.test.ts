import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import { createPool, poolCommitment, seedToHex, ticketAt } from './ticket-pool.ts';
import { type RecordedDraw, verifyPool } from './verify-pool.ts';

const SAMPLING = 100_001;
const WINNERS = [15_000, 8_000, 4_000, 2_000, 800, 150, 30, 1];
const seed = sha256(utf8ToBytes('verify test seed'));
const seedHex = seedToHex(seed);
const commitment = poolCommitment(seed);
const pool = createPool(seed, SAMPLING, WINNERS);
const honestLog: RecordedDraw[] = Array.from({ length: 5_000 }, (_, drawIndex) => ({
  drawIndex,
  level: ticketAt(pool, drawIndex),
}));

describe('verifyPool', () => {
  it('accepts the published seed, the commitment and an honest draw log', () => {
    const result = verifyPool(seedHex, commitment, SAMPLING, WINNERS, honestLog);
    expect(result).toEqual({
      ok: true,
      commitmentMatches: true,
      levelCounts: [SAMPLING - 29_981, ...WINNERS],
      countsMatch: true,
      mismatches: [],
      mismatchCount: 0,
      drawsChecked: 5_000,
      error: null,
    });
    expect(verifyPool(seedHex.toUpperCase(), commitment.toUpperCase(), SAMPLING, WINNERS).ok).toBe(true);
  });

  it('reports a tampered draw log', () => {
    const tampered = honestLog.map((draw) => ({ ...draw }));
    const losing = tampered.find((draw) => draw.level === 0) as RecordedDraw;
    losing.level = 8;
    tampered.push({ drawIndex: 3, level: honestLog[3]?.level ?? 0 }); // drawn twice
    tampered.push({ drawIndex: SAMPLING, level: 0 });
    const result = verifyPool(seedHex, commitment, SAMPLING, WINNERS, tampered);
    expect(result.ok).toBe(false);
    expect(result.commitmentMatches).toBe(true);
    expect(result.countsMatch).toBe(true);
    expect(result.drawsChecked).toBe(5_002);
    expect(result.mismatches).toEqual([
      { drawIndex: losing.drawIndex, expected: 0, recorded: 8, reason: 'level' },
      { drawIndex: 3, expected: honestLog[3]?.level, recorded: honestLog[3]?.level, reason: 'duplicate' },
      { drawIndex: SAMPLING, expected: null, recorded: 0, reason: 'out-of-range' },
    ]);
  });

  it('lists at most 100 mismatches but counts them all', () => {
    const wrong = honestLog.map(({ drawIndex, level }) => ({ drawIndex, level: level === 0 ? 1 : 0 }));
    const result = verifyPool(seedHex, commitment, SAMPLING, WINNERS, wrong);
    expect(result.mismatches).toHaveLength(100);
    expect(result.mismatchCount).toBe(5_000);
  });

  it('reports a commitment that does not match the seed', () => {
    const other = poolCommitment(sha256(utf8ToBytes('another seed')));
    const result = verifyPool(seedHex, other, SAMPLING, WINNERS, honestLog);
    expect(result.ok).toBe(false);
    expect(result.commitmentMatches).toBe(false);
    expect(result.countsMatch).toBe(true);
    expect(result.mismatchCount).toBe(0);
  });

  it('reports unusable input instead of throwing', () => {
    const badSeed = verifyPool('xyz', commitment, SAMPLING, WINNERS);
    expect(badSeed.ok).toBe(false);
    expect(badSeed.error).toMatch(/64 hexadecimal/);
    const badWinners = verifyPool(seedHex, commitment, SAMPLING, [SAMPLING, 1, 0, 0, 0, 0, 0, 0]);
    expect(badWinners).toMatchObject({ ok: false, commitmentMatches: true, levelCounts: [] });
    expect(badWinners.error).toMatch(/more than sampling/);
  });
});
