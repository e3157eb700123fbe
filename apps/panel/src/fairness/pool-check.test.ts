import { createPool, seedToHex, ticketAt } from '@raspa/core';
import type { Game, Pool, RoundTicket } from '@raspa/server/wire';
import { describe, expect, it } from 'vitest';
import { checkPool, checkTicket } from './pool-check.ts';

// A small pool made by the core from a known seed, as the service would have: the panel's checks must
// agree with it whatever order the API lists the ladder's levels in.
const seed = new Uint8Array(32).map((_, index) => (index * 37 + 11) % 256);
const winners = [300, 120, 60, 30, 12, 6, 3, 1];
const sampling = 100_001; // the smallest pool the core makes
const made = createPool(seed, sampling, winners);
const game: Pick<Game, 'levels' | 'sampling'> = {
  sampling,
  levels: winners
    .map((count, index) => ({ level: index + 1, winners: count, totalPrize: 0, prize: 0, percentage: 0 }))
    .reverse(),
};
const pool: Pool = {
  poolId: 'p1',
  number: 1,
  sampling,
  commitment: made.commitment,
  draws: sampling,
  startedAt: '2026-03-01T00:00:00.000Z',
  endedAt: '2026-03-02T00:00:00.000Z',
  seed: seedToHex(seed),
};
const ticket = (drawIndex: number, level: number): RoundTicket => ({
  poolId: 'p1',
  poolNumber: 1,
  commitment: made.commitment,
  seed: seedToHex(seed),
  drawIndex,
  level,
});

describe('checkPool', () => {
  it('verifies an ended pool against its commitment and the ladder’s winners', () => {
    expect(checkPool(pool, game)).toMatchObject({ ok: true, commitmentMatches: true, countsMatch: true });
  });

  it('says when the seed is not the commitment’s', () => {
    const other = seedToHex(new Uint8Array(32).fill(7));
    expect(checkPool({ ...pool, seed: other }, game)).toMatchObject({ ok: false, commitmentMatches: false });
  });

  it('has nothing to check while the pool runs', () => {
    expect(checkPool({ ...pool, seed: null, endedAt: null }, game)).toBeUndefined();
  });
});

describe('checkTicket', () => {
  it('accepts the level the seed gives a draw, and refuses any other', () => {
    for (const drawIndex of [0, 1, 4_999, sampling - 1]) {
      const level = ticketAt(made, drawIndex);
      expect(checkTicket(ticket(drawIndex, level), game)?.ok).toBe(true);
      const wrong = checkTicket(ticket(drawIndex, (level + 1) % 9), game);
      expect(wrong).toMatchObject({ ok: false, commitmentMatches: true, mismatchCount: 1 });
    }
  });

  it('has nothing to check before the seed is published', () => {
    expect(checkTicket({ ...ticket(0, 0), seed: null }, game)).toBeUndefined();
  });
});
