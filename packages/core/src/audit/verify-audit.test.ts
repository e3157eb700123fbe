import { generateKeyPairSync } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../signer/canonical-json.ts';
import {
  type Anchor,
  anchorHash,
  GENESIS_PREVIOUS,
  seedOf,
  signAnchor,
  signingKeyFromSeed,
  signingKeyOf,
} from './anchor.ts';
import { auditPath, leafHash, merkleRoot, toHex } from './merkle.ts';
import { type AnchorToCheck, type AuditLeaf, verifyAudit, verifyProof } from './verify-audit.ts';

const key = signingKeyOf(generateKeyPairSync('ed25519').privateKey);
const otherKey = signingKeyOf(generateKeyPairSync('ed25519').privateKey);
const keys = [{ keyId: key.keyId, publicKey: key.publicKey }];

const leafOf = (i: number): AuditLeaf => ({
  label: `round r_${i}`,
  leaf: canonicalJson({ kind: 'round', id: `r_${i}`, paidMinor: 100 + i, status: 'closed' }),
});

/** A chain of anchors over `sizes[k]` leaves each, signed honestly. */
function chain(sizes: readonly number[], signer = key): AnchorToCheck[] {
  const out: AnchorToCheck[] = [];
  let next = 0;
  let before: Anchor | null = null;
  for (const [k, size] of sizes.entries()) {
    const leaves = Array.from({ length: size }, () => leafOf(next++));
    const hashes = leaves.map((l) => leafHash(l.leaf));
    const anchor = signAnchor(
      {
        clientId: 'c_1',
        seq: k + 1,
        count: size,
        root: toHex(merkleRoot(hashes)),
        previous: before ? anchorHash(before) : GENESIS_PREVIOUS,
        at: `2026-11-28T12:${String(k % 60).padStart(2, '0')}:00.000Z`,
        keyId: signer.keyId,
      },
      signer,
    );
    out.push({
      anchor,
      leaves,
      recorded: leaves.map((l, i) => ({ label: l.label, hash: toHex(hashes[i] ?? new Uint8Array()) })),
    });
    before = anchor;
  }
  return out;
}

const sizesArb = fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 5 });
/** A chain and the coordinates of one of its leaves. */
const withLeaf = sizesArb.chain((sizes) =>
  fc.record({ sizes: fc.constant(sizes), k: fc.nat({ max: sizes.length - 1 }), pick: fc.nat() }),
);
const withoutRecorded = (c: AnchorToCheck[]): AnchorToCheck[] =>
  c.map(({ anchor, leaves }) => ({ anchor, leaves }));
const breakOf = (c: AnchorToCheck[]) => {
  const verdict = verifyAudit(c, keys);
  return verdict.ok ? null : verdict.break;
};
function replaceLeaves(
  c: AnchorToCheck[],
  k: number,
  change: (leaves: AuditLeaf[]) => AuditLeaf[],
): AnchorToCheck[] {
  return c.map((item, i) => (i === k ? { ...item, leaves: change([...item.leaves]) } : item));
}

describe('verifyAudit', () => {
  it('accepts an honest chain', () => {
    fc.assert(
      fc.property(sizesArb, (sizes) => {
        const c = chain(sizes);
        const total = sizes.reduce((a, b) => a + b, 0);
        expect(verifyAudit(c, keys)).toEqual({ ok: true, anchors: sizes.length, leaves: total });
        expect(verifyAudit(withoutRecorded(c), keys).ok).toBe(true);
      }),
      { numRuns: 30 },
    );
  });

  it('catches any single-byte change to a leaf, naming the record when the signed hashes are kept', () => {
    fc.assert(
      fc.property(withLeaf, fc.nat(), fc.integer({ min: 1, max: 255 }), ({ sizes, k, pick }, at, delta) => {
        const c = chain(sizes);
        const i = pick % (sizes[k] ?? 1);
        const changed = replaceLeaves(c, k, (leaves) => {
          const l = leaves[i] as AuditLeaf;
          const bytes = Buffer.from(l.leaf, 'utf8');
          const j = at % bytes.length;
          bytes[j] = ((bytes[j] as number) + delta) % 256;
          leaves[i] = { ...l, leaf: bytes.toString('latin1') };
          return leaves;
        });
        const named = breakOf(changed);
        expect(named).toMatchObject({
          reason: 'leaf-changed',
          anchorSeq: k + 1,
          record: `round r_${leafIndexOf(sizes, k, i)}`,
        });
        expect(breakOf(withoutRecorded(changed))).toMatchObject({ reason: 'root', anchorSeq: k + 1 });
      }),
      { numRuns: 100 },
    );
  });

  it('catches a removed, inserted, reordered or duplicated leaf', () => {
    fc.assert(
      fc.property(
        withLeaf,
        fc.constantFrom('remove', 'insert', 'swap', 'duplicate'),
        ({ sizes, k, pick }, how) => {
          const c = chain(sizes);
          const n = sizes[k] ?? 1;
          const i = pick % n;
          if (how === 'swap' && n < 2) return;
          const changed = replaceLeaves(c, k, (leaves) => {
            if (how === 'remove') leaves.splice(i, 1);
            if (how === 'insert') leaves.splice(i, 0, leafOf(10_000));
            if (how === 'duplicate') leaves.splice(i, 0, leaves[i] as AuditLeaf);
            if (how === 'swap') {
              const j = (i + 1) % n;
              [leaves[i], leaves[j]] = [leaves[j] as AuditLeaf, leaves[i] as AuditLeaf];
            }
            return leaves;
          });
          const expected = {
            remove: 'leaf-removed',
            insert: 'leaf-inserted',
            swap: 'leaf-reordered',
            duplicate: 'leaf-duplicated',
          }[how];
          expect(breakOf(changed)).toMatchObject({ reason: expected, anchorSeq: k + 1 });
          expect(breakOf(withoutRecorded(changed))?.anchorSeq).toBe(k + 1);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('tells a changed list of kept hashes (the anchor’s row) from a changed record', () => {
    fc.assert(
      fc.property(withLeaf, fc.constantFrom('change', 'remove', 'insert'), ({ sizes, k, pick }, how) => {
        const c = chain(sizes);
        const item = c[k] as AnchorToCheck;
        const kept = [...(item.recorded ?? [])];
        const i = pick % kept.length;
        const l = kept[i] as { label: string; hash: string };
        if (how === 'change')
          kept[i] = { ...l, hash: `${l.hash.slice(0, -1)}${l.hash.endsWith('0') ? '1' : '0'}` };
        if (how === 'remove') kept.splice(i, 1);
        if (how === 'insert') kept.splice(i, 0, { label: 'round r_forged', hash: l.hash });
        c[k] = { ...item, recorded: kept };
        expect(breakOf(c)).toMatchObject({ reason: 'recorded', anchorSeq: k + 1, record: null });
      }),
      { numRuns: 100 },
    );
  });

  it('catches a leaf moved into another anchor as a duplicate', () => {
    const c = chain([2, 2]);
    const moved = replaceLeaves(c, 1, (leaves) => [...leaves, c[0]?.leaves[0] as AuditLeaf]);
    expect(breakOf(withoutRecorded(moved))).toMatchObject({
      reason: 'leaf-duplicated',
      anchorSeq: 2,
      record: 'round r_0',
    });
  });

  it('catches any changed anchor field, a removed or repeated anchor, and a wrong key', () => {
    const fields = ['clientId', 'seq', 'count', 'root', 'previous', 'at', 'keyId', 'signature'] as const;
    fc.assert(
      fc.property(withLeaf, fc.constantFrom(...fields), ({ sizes, k }, field) => {
        const c = chain(sizes);
        const item = c[k] as AnchorToCheck;
        const a = item.anchor;
        const value = a[field];
        const changed: Anchor = {
          ...a,
          [field]:
            typeof value === 'number'
              ? value + 1
              : field === 'signature'
                ? flipBase64(value)
                : `${value.slice(0, -1)}${value.endsWith('0') ? '1' : '0'}`,
        };
        c[k] = { ...item, anchor: changed };
        const found = breakOf(c);
        expect(found).not.toBeNull();
        expect(found?.anchorSeq).toBe(field === 'seq' ? a.seq + 1 : a.seq);
      }),
      { numRuns: 100 },
    );
    const c = chain([1, 2, 3]);
    expect(breakOf([c[0], c[2]] as AnchorToCheck[])).toMatchObject({ reason: 'seq', anchorSeq: 3 });
    expect(breakOf([c[0], c[1], c[1]] as AnchorToCheck[])).toMatchObject({ reason: 'seq', anchorSeq: 2 });
    expect(breakOf(chain([1, 2], otherKey))).toMatchObject({ reason: 'unknown-key', anchorSeq: 1 });
    const forged = chain([1, 2], { ...otherKey, keyId: key.keyId });
    expect(breakOf(forged)).toMatchObject({ reason: 'signature', anchorSeq: 1 });
  });

  it('stops at the first break', () => {
    const c = chain([3, 3, 3]);
    const twice = replaceLeaves(
      replaceLeaves(c, 2, (l) => l.slice(1)),
      1,
      (l) => l.slice(1),
    );
    expect(breakOf(twice)).toMatchObject({ anchorSeq: 2, reason: 'leaf-removed', record: 'round r_3' });
  });
});

describe('verifyProof', () => {
  it('holds for every leaf of an anchor, and fails for a changed leaf, path, index or key', () => {
    const [item] = chain([7]);
    const { anchor, leaves } = item as AnchorToCheck;
    const hashes = leaves.map((l) => leafHash(l.leaf));
    leaves.forEach((l, leafIndex) => {
      const proof = { leaf: l.leaf, leafIndex, path: auditPath(hashes, leafIndex).map(toHex), anchor };
      expect(verifyProof(proof, keys)).toEqual({ ok: true });
      expect(verifyProof({ ...proof, leaf: `${l.leaf} ` }, keys)).toMatchObject({
        ok: false,
        reason: 'path',
      });
      expect(verifyProof({ ...proof, leafIndex: (leafIndex + 1) % 7 }, keys)).toMatchObject({
        ok: false,
        reason: 'path',
      });
      expect(verifyProof({ ...proof, path: proof.path.slice(1) }, keys)).toMatchObject({
        ok: false,
        reason: 'path',
      });
      expect(verifyProof({ ...proof, anchor: { ...anchor, count: 8 } }, keys)).toMatchObject({
        ok: false,
        reason: 'signature',
      });
      expect(verifyProof(proof, [{ keyId: key.keyId, publicKey: otherKey.publicKey }])).toMatchObject({
        ok: false,
        reason: 'signature',
      });
    });
  });
});

describe('signing keys', () => {
  it('round-trips a seed, and refuses what is not a 32-byte base64 seed', () => {
    const again = signingKeyFromSeed(seedOf(key));
    expect(again?.keyId).toBe(key.keyId);
    expect(again?.publicKey).toBe(key.publicKey);
    for (const bad of ['', 'abc', seedOf(key).slice(1), `${seedOf(key)}AA`, '!'.repeat(44)]) {
      expect(signingKeyFromSeed(bad)).toBeNull();
    }
  });
});

function leafIndexOf(sizes: readonly number[], k: number, i: number): number {
  return sizes.slice(0, k).reduce((a, b) => a + b, 0) + i;
}

function flipBase64(s: string): string {
  const c = s[0] === 'A' ? 'B' : 'A';
  return c + s.slice(1);
}
