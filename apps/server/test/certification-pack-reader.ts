import { type PoolVerification, verifyPool } from '@raspa/core';
import { strFromU8, unzipSync } from 'fflate';

/** A certification pack's members (docs/certification.md), each as text, in the zip's order. */
export function readPack(zip: Uint8Array): Map<string, string> {
  return new Map(Object.entries(unzipSync(zip)).map(([name, bytes]) => [name, strFromU8(bytes)]));
}

/**
 * What a lab does with the pack alone (its VERIFY.md): each ended pool of pools.json, its seed
 * checked against its commitment and the pool re-derived from it, which must hold par-sheet.json's
 * winners of each level. A pool still running has no seed to check yet and is left out.
 */
export function verifyPackPools(
  pack: Map<string, string>,
): Array<{ number: number; seed: string; verification: PoolVerification }> {
  const sheet = JSON.parse(pack.get('par-sheet.json') ?? 'null');
  const pools: Array<{ number: number; commitment: string; seed: string | null }> = JSON.parse(
    pack.get('pools.json') ?? '[]',
  );
  const winners = sheet.levels.map((level: { winners: number }) => level.winners);
  return pools.flatMap(({ number, commitment, seed }) =>
    seed === null
      ? []
      : [{ number, seed, verification: verifyPool(seed, commitment, sheet.sampling, winners) }],
  );
}
