import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.ts';
import { signBodyWebCrypto } from './web-sign-body.ts';

interface Vector {
  name: string;
  signatureToken: string;
  body: unknown;
  canonical: string;
  signature: string;
}

const vectors: Vector[] = JSON.parse(
  readFileSync(new URL('../../../../docs/signature-vectors.json', import.meta.url), 'utf8'),
).vectors;

describe('signBodyWebCrypto (as the sandbox and the panel sign)', () => {
  it.each(vectors.map((vector) => [vector.name, vector] as const))(
    'reproduces the vector: %s',
    async (_, vector) => {
      if (vector.body !== null) expect(canonicalJson(vector.body)).toBe(vector.canonical);
      expect(await signBodyWebCrypto(vector.body, vector.signatureToken)).toBe(vector.signature);
    },
  );

  it('signs {} when there is no body', async () => {
    expect(await signBodyWebCrypto(undefined, 'key')).toBe(await signBodyWebCrypto({}, 'key'));
  });

  it('signs the same whatever the key order, since keys are sorted by UTF-16 code unit', async () => {
    const a = await signBodyWebCrypto({ 9: 'x', 10: 'y', b: [1, { d: 1, c: 2 }] }, 'k');
    const b = await signBodyWebCrypto({ b: [1, { c: 2, d: 1 }], 10: 'y', 9: 'x' }, 'k');
    expect(a).toBe(b);
    expect(a).toMatch(/^[0-9a-f]{128}$/);
  });
});
