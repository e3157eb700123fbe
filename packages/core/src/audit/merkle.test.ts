import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  auditPath,
  type Digest,
  leafHash,
  merkleRoot,
  rootFromPath,
  toHex,
  verifyInclusion,
} from './merkle.ts';

// The eight leaves and tree heads of Certificate Transparency's RFC 6962 test data (the roots of
// the first 1..8 leaves), as published with its reference implementation.
const CT_LEAVES = [
  '',
  '00',
  '10',
  '2021',
  '3031',
  '40414243',
  '5051525354555657',
  '606162636465666768696a6b6c6d6e6f',
];
const CT_ROOTS = [
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];
const ctHashes = CT_LEAVES.map((hex) => leafHash(Buffer.from(hex, 'hex')));
const hashesOf = (n: number): Digest[] => Array.from({ length: n }, (_, i) => leafHash(`leaf ${i}`));

describe('merkle tree hashing (RFC 6962 §2.1)', () => {
  it('gives the CT test data roots for 1 to 8 leaves, and SHA-256 of nothing for none', () => {
    for (const [i, root] of CT_ROOTS.entries())
      expect(toHex(merkleRoot(ctHashes.slice(0, i + 1)))).toBe(root);
    expect(toHex(merkleRoot([]))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('proves every leaf of the CT data in every tree size', () => {
    for (let n = 1; n <= 8; n++) {
      const root = merkleRoot(ctHashes.slice(0, n));
      for (let i = 0; i < n; i++) {
        expect(verifyInclusion(i, n, ctHashes[i] as Digest, auditPath(ctHashes.slice(0, n), i), root)).toBe(
          true,
        );
      }
    }
  });

  it('proves every index for random tree sizes, and no proof holds for another index or a longer path', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100 }), fc.nat(), (n, pick) => {
        const hashes = hashesOf(n);
        const root = merkleRoot(hashes);
        for (let i = 0; i < n; i++) {
          expect(verifyInclusion(i, n, hashes[i] as Digest, auditPath(hashes, i), root)).toBe(true);
        }
        const i = pick % n;
        const path = auditPath(hashes, i);
        if (n > 1) expect(verifyInclusion((i + 1) % n, n, hashes[i] as Digest, path, root)).toBe(false);
        expect(rootFromPath(i, n, hashes[i] as Digest, [...path, hashes[0] as Digest])).toBeNull();
      }),
      { numRuns: 25 },
    );
  });

  it('refuses a path with any one bit flipped', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 64 }),
        fc.nat(),
        fc.nat(),
        fc.nat({ max: 255 }),
        (n, pick, at, bit) => {
          const hashes = hashesOf(n);
          const i = pick % n;
          const path = auditPath(hashes, i).map((p) => Uint8Array.from(p));
          const target = path[at % path.length] as Uint8Array;
          target[bit % 32] = (target[bit % 32] as number) ^ (1 << (bit % 8));
          expect(verifyInclusion(i, n, hashes[i] as Digest, path, merkleRoot(hashes))).toBe(false);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('refuses an index outside the tree', () => {
    expect(() => auditPath(hashesOf(3), 3)).toThrow(RangeError);
    expect(rootFromPath(-1, 3, leafHash('x'), [])).toBeNull();
    expect(rootFromPath(3, 3, leafHash('x'), [])).toBeNull();
  });
});
