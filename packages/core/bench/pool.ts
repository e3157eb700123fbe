/**
 * Ticket pool speed. Targets (2-core CI machine): ≥ 5,000,000 draws/s on a 100,000,000-ticket
 * pool, and a whole 10,000,000-ticket pool verified in under 5 s.
 */
import { createPool, poolCommitment, seedToHex, ticketAt, verifyPool } from '../src/pool/index.ts';

const LADDER_100M = [15_000_000, 8_000_000, 4_000_000, 2_000_000, 800_000, 150_000, 30_000, 100];
const LADDER_10M = [1_500_000, 800_000, 400_000, 200_000, 80_000, 15_000, 3_000, 10];

export async function benchPool(): Promise<Array<{ name: string; value: number; unit: string }>> {
  const seed = Uint8Array.from({ length: 32 }, (_, i) => (i * 37 + 11) & 255);

  // Table derivation: best of a few, after one warm-up.
  createPool(seed, 100_000_000, LADDER_100M);
  let createMs = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 5; run++) {
    const start = performance.now();
    createPool(seed, 100_000_000, LADDER_100M);
    createMs = Math.min(createMs, performance.now() - start);
  }

  const pool = createPool(seed, 100_000_000, LADDER_100M);
  const draws = 5_000_000;
  let sink = 0;
  for (let i = 0; i < 200_000; i++) sink += ticketAt(pool, i); // warm-up
  const drawStart = performance.now();
  for (let i = 0; i < draws; i++) sink += ticketAt(pool, i * 19 + 7);
  const drawSeconds = (performance.now() - drawStart) / 1000;

  const verifyStart = performance.now();
  const verification = verifyPool(seedToHex(seed), poolCommitment(seed), 10_000_000, LADDER_10M);
  const verifySeconds = (performance.now() - verifyStart) / 1000;
  if (!verification.ok || sink < 0) throw new Error('pool bench: verification failed');

  return [
    { name: 'pool draws (100,000,000-ticket pool)', value: Math.round(draws / drawSeconds), unit: 'draws/s' },
    { name: 'pool verify (whole 10,000,000-ticket pool)', value: round(verifySeconds, 3), unit: 's' },
    { name: 'pool create (100,000,000 tickets, table derivation)', value: round(createMs, 1), unit: 'ms' },
  ];
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
