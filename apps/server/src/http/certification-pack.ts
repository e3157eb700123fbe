import { strToU8, zipSync } from 'fflate';
import type { BuildIdentity } from '../ops/build-identity.ts';

/** The members of the certification pack (docs/contract.md §17), in the zip's order. */
export const PACK_MEMBERS = [
  'par-sheet.json',
  'par-sheet.csv',
  'game.json',
  'pools.json',
  'VERIFY.md',
  'build.json',
] as const;

export interface PackContents {
  gameId: string;
  version: number;
  parSheet: unknown;
  parSheetCsv: string;
  game: unknown;
  pools: unknown;
  build: BuildIdentity;
  /** The members' time in the zip: the version's creation, so one version's pack differs only by what changed. */
  createdAt: string;
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/**
 * How to verify a pool and a card of this version (VERIFY.md): what a lab does with the pack. The
 * procedure is docs/games.md's *Fair ticket pools* and `pnpm verify-pool`, said for this version.
 */
export function verifyGuide(gameId: string, version: number): string {
  return `# Verifying game ${gameId}, version ${version}

This pack holds the version's PAR sheet (par-sheet.json, par-sheet.csv), its configuration (game.json),
its ticket pools (pools.json) and the build that served it (build.json).

## The random number generator and the shuffle

- Each pool's seed is 32 bytes from the operating system's CSPRNG (Node.js \`crypto.randomBytes\`), drawn
  when the pool starts and kept sealed (encrypted) until the pool ends.
- A pool holds exactly \`sampling\` tickets: the ladder's \`winners\` of each level (par-sheet.json
  \`levels[].winners\`), the rest losing. Their order is a keyed permutation of the draw indexes: a Feistel
  network whose 8 round functions are tables derived with SHA-256 from the seed, with cycle-walking
  (packages/core/src/pool/feistel.ts; test vectors in docs/pool-vectors.json). Each card sold takes a draw
  index of the pool no card took before, and its level is the ticket at that index: every whole pool
  returns the sheet's \`rtp\` exactly.
- A card's symbols are laid out from its level by the game model's rules (cosmetic randomness, same
  source); the prize is the level's, never the symbols'.

## Verifying a pool

1. When a pool starts, its \`commitment\` (pools.json) is published: the SHA-256 of its seed, in hex.
2. When it ends, its \`seed\` is published (pools.json, or GET /v1/game/${gameId}/pools).
3. Check that SHA-256(seed bytes) equals the commitment.
4. Re-derive the permutation from the seed (packages/core/src/pool/) and count each level's tickets:
   they must equal par-sheet.json's \`winners\` per level, and \`sampling\` in all.

The service's operator runs all of this, and checks every round drawn from the pool, with:

    pnpm verify-pool --game ${gameId}

It exits 0 when every check holds and prints one line per check.

## Verifying a card

A round's pool and draw index are in the service's database; the ticket at that index of the re-derived
permutation gives the round's level, and the level's prize must be the round's prize.
\`pnpm verify-pool --game ${gameId}\` does this for every round of each ended pool. A running pool's seed is
not published yet: its rounds can be verified once it ends.

Cards of test profiles forced to a level (POST /v1/test/next-cards) come from no pool and are not
part of any pool's verification (docs/certification.md).
`;
}

/** The pack as zip bytes: the members of PACK_MEMBERS, each stored with the version's time. */
export function certificationPack(contents: PackContents): Uint8Array {
  const mtime = new Date(contents.createdAt);
  const member = (text: string): [Uint8Array, { mtime: Date }] => [strToU8(text), { mtime }];
  const members: Record<(typeof PACK_MEMBERS)[number], [Uint8Array, { mtime: Date }]> = {
    'par-sheet.json': member(json(contents.parSheet)),
    'par-sheet.csv': member(contents.parSheetCsv),
    'game.json': member(json(contents.game)),
    'pools.json': member(json(contents.pools)),
    'VERIFY.md': member(verifyGuide(contents.gameId, contents.version)),
    'build.json': member(json(contents.build)),
  };
  return zipSync(members, { level: 6 });
}
