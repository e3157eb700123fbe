import { describe, expect, it } from 'vitest';
import vectorsFile from '../../../../docs/pool-vectors.json' with { type: 'json' };
import { createPool, seedFromHex, ticketAt, ticketNumberAt } from './ticket-pool.ts';
import { verifyPool } from './verify-pool.ts';

// docs/pool-vectors.json is what third-party verifiers check their own implementation against:
// if this test fails, the published derivation changed and the file (and the spec) must follow.
describe('published pool test vectors', () => {
  it('has three vectors', () => {
    expect(vectorsFile.vectors).toHaveLength(3);
  });

  it.each(vectorsFile.vectors.map((vector) => [vector.sampling, vector] as const))(
    'reproduces the vector with sampling %i',
    (_, vector) => {
      const pool = createPool(seedFromHex(vector.seedHex), vector.sampling, vector.winners);
      const { halfBits, tables } = pool.permutation;
      expect(pool.commitment).toBe(vector.commitment);
      expect(halfBits).toBe(vector.halfBits);
      expect(Array.from(tables.subarray(0, 8))).toEqual(vector.round0TableStart);
      expect(Array.from(tables.subarray(7 << halfBits, (7 << halfBits) + 8))).toEqual(
        vector.round7TableStart,
      );
      const first = vector.firstTicketNumbers.map((_, i) => i);
      expect(first.map((i) => ticketNumberAt(pool, i))).toEqual(vector.firstTicketNumbers);
      expect(first.map((i) => ticketAt(pool, i))).toEqual(vector.firstLevels);
    },
  );

  it('verifies the first vector with its levels as a draw log', () => {
    const vector = vectorsFile.vectors[0];
    if (vector === undefined) throw new Error('missing vector');
    const draws = vector.firstLevels.map((level, drawIndex) => ({ drawIndex, level }));
    const result = verifyPool(vector.seedHex, vector.commitment, vector.sampling, vector.winners, draws);
    expect(result.ok).toBe(true);
  });
});
