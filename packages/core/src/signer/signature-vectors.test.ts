// The integrators' test vectors (docs/signature-vectors.json) were checked independently
// (Python hmac + its own canonicaliser, and openssl); here our code must reproduce them exactly.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.ts';
import { canonicalBody, signBody, signCanonical, verifySignature } from './sign-request.ts';

interface Vector {
  name: string;
  signatureToken: string;
  body: unknown;
  canonical: string;
  signature: string;
}

const file = JSON.parse(
  readFileSync(new URL('../../../../docs/signature-vectors.json', import.meta.url), 'utf8'),
) as { description: unknown; vectors: Vector[] };

describe('docs/signature-vectors.json', () => {
  it('has a description and at least 24 uniquely named, well-formed vectors', () => {
    expect(typeof file.description).toBe('string');
    expect(file.vectors.length).toBeGreaterThanOrEqual(24);
    expect(new Set(file.vectors.map((v) => v.name)).size).toBe(file.vectors.length);
    for (const v of file.vectors) {
      expect(v.signature).toMatch(/^[0-9a-f]{128}$/);
      expect(v.signatureToken.length).toBeGreaterThan(0);
    }
  });

  it('covers no body, integer-like keys, astral keys, a non-ASCII token and a ~2 KB body', () => {
    expect(file.vectors.some((v) => v.body === null && v.canonical === '{}')).toBe(true);
    expect(
      file.vectors.some((v) => v.canonical.includes('"10":"ten","100":"hundred","2":"two","9":"nine"')),
    ).toBe(true);
    expect(
      file.vectors.some(
        (v) => v.canonical.indexOf('😀') >= 0 && v.canonical.indexOf('😀') < v.canonical.indexOf('ｚ'),
      ),
    ).toBe(true);
    expect(file.vectors.some((v) => /[^\x20-\x7e]/.test(v.signatureToken))).toBe(true);
    expect(Math.max(...file.vectors.map((v) => Buffer.byteLength(v.canonical)))).toBeGreaterThanOrEqual(2000);
  });

  for (const v of file.vectors) {
    it(`reproduces "${v.name}"`, () => {
      expect(canonicalBody(v.body)).toBe(v.canonical);
      if (v.body !== null) {
        expect(canonicalJson(v.body)).toBe(v.canonical);
        expect(JSON.parse(v.canonical)).toEqual(v.body);
      }
      expect(signCanonical(v.canonical, v.signatureToken)).toBe(v.signature);
      expect(signBody(v.body, v.signatureToken)).toBe(v.signature);
      expect(verifySignature(v.body, v.signatureToken, v.signature)).toBe(true);
      expect(verifySignature(v.body, v.signatureToken, v.signature.toUpperCase())).toBe(true);
      expect(verifySignature(v.body, `${v.signatureToken}x`, v.signature)).toBe(false);
    });
  }
});
