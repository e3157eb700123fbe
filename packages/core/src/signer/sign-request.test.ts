import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.ts';
import {
  canonicalBody,
  SIGNATURE_HEX_LENGTH,
  signBody,
  signCanonical,
  verifySignature,
} from './sign-request.ts';

const TOKEN = 'st_test_3b1f0c9e';
const BODY = { playerId: 'p-1', stake: { amount: 250, scale: 2 }, tags: ['a', 'b'] };
const token = fc.string({ minLength: 1, maxLength: 40, unit: 'grapheme' });
const body = fc.jsonValue({ maxDepth: 5, stringUnit: 'grapheme' });

describe('signCanonical / signBody', () => {
  it('is lowercase hex HMAC-SHA512 of the canonical UTF-8 bytes keyed by the token', () => {
    const canonical = '{"playerId":"p-1","stake":{"amount":250,"scale":2},"tags":["a","b"]}';
    expect(canonicalJson(BODY)).toBe(canonical);
    const expected = createHmac('sha512', Buffer.from(TOKEN, 'utf8'))
      .update(Buffer.from(canonical, 'utf8'))
      .digest('hex');
    expect(signCanonical(canonical, TOKEN)).toBe(expected);
    expect(signBody(BODY, TOKEN)).toBe(expected);
    expect(expected).toMatch(/^[0-9a-f]{128}$/);
  });

  it('encodes non-ASCII tokens and bodies as UTF-8', () => {
    const tok = 'chave-sécreta-日本-🔑';
    const canonical = '{"nome":"João 😀"}';
    const expected = createHmac('sha512', Buffer.from(tok, 'utf8'))
      .update(Buffer.from(canonical, 'utf8'))
      .digest('hex');
    expect(signBody({ nome: 'João 😀' }, tok)).toBe(expected);
  });

  it('signs {} when there is no body (undefined or null)', () => {
    const empty = signCanonical('{}', TOKEN);
    expect(canonicalBody(undefined)).toBe('{}');
    expect(canonicalBody(null)).toBe('{}');
    expect(signBody(undefined, TOKEN)).toBe(empty);
    expect(signBody(null, TOKEN)).toBe(empty);
    expect(signBody({}, TOKEN)).toBe(empty);
    expect(signBody({ a: undefined }, TOKEN)).toBe(empty);
  });

  it('depends on the token and on key order only through canonicalisation', () => {
    expect(signBody(BODY, TOKEN)).not.toBe(signBody(BODY, `${TOKEN}x`));
    expect(signBody({ b: 1, a: 2 }, TOKEN)).toBe(signBody({ a: 2, b: 1 }, TOKEN));
  });

  it('throws a TypeError for a body with no canonical form or an empty token', () => {
    expect(() => signBody({ a: Number.NaN }, TOKEN)).toThrow(TypeError);
    expect(() => signBody({ a: Number.NaN }, TOKEN)).toThrow(/\$\.a/);
    expect(() => signBody({ at: new Date() }, TOKEN)).toThrow(TypeError);
    expect(() => signBody(BODY, '')).toThrow(TypeError);
    expect(() => signCanonical('{}', '')).toThrow(TypeError);
  });
});

describe('verifySignature', () => {
  const good = signBody(BODY, TOKEN);

  it('accepts the signature, in lowercase, uppercase or mixed case', () => {
    expect(verifySignature(BODY, TOKEN, good)).toBe(true);
    expect(verifySignature(BODY, TOKEN, good.toUpperCase())).toBe(true);
    const mixed = [...good].map((c, i) => (i % 2 ? c.toUpperCase() : c)).join('');
    expect(verifySignature(BODY, TOKEN, mixed)).toBe(true);
    expect(verifySignature(JSON.parse(JSON.stringify(BODY)), TOKEN, good)).toBe(true);
  });

  it('accepts a no-body signature for undefined and null bodies', () => {
    const empty = signBody(undefined, TOKEN);
    expect(verifySignature(undefined, TOKEN, empty)).toBe(true);
    expect(verifySignature(null, TOKEN, empty)).toBe(true);
    expect(verifySignature({}, TOKEN, empty)).toBe(true);
  });

  it('rejects a missing, repeated, wrongly sized or non-hex header', () => {
    const bad: Array<string | undefined | null | string[]> = [
      undefined,
      null,
      '',
      [good],
      [good, good],
      good.slice(0, -1),
      `${good}0`,
      `${good.slice(0, -2)}`,
      ` ${good.slice(1)}`,
      `${good.slice(0, -1)} `,
      `0x${good.slice(2)}`,
      `${good.slice(0, 64)}g${good.slice(65)}`,
      `${good.slice(0, -1)}G`,
      `é${good.slice(1)}`,
      Buffer.from(good, 'hex').toString('base64'),
      '0'.repeat(SIGNATURE_HEX_LENGTH),
    ];
    for (const header of bad) expect(verifySignature(BODY, TOKEN, header)).toBe(false);
    // A non-hex digit anywhere (Buffer hex decoding truncates there) is rejected.
    for (let i = 0; i < SIGNATURE_HEX_LENGTH; i++) {
      const header = `${good.slice(0, i)}z${good.slice(i + 1)}`;
      expect(verifySignature(BODY, TOKEN, header)).toBe(false);
    }
  });

  it('rejects the wrong token, an empty token and a body with no canonical form', () => {
    expect(verifySignature(BODY, `${TOKEN}!`, good)).toBe(false);
    expect(verifySignature(BODY, '', good)).toBe(false);
    expect(verifySignature({ ...BODY, extra: Number.NaN }, TOKEN, good)).toBe(false);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(verifySignature(cyclic, TOKEN, good)).toBe(false);
    expect(verifySignature(BODY, undefined as unknown as string, good)).toBe(false);
  });

  it('rejects a body changed in any single value', () => {
    expect(verifySignature({ ...BODY, playerId: 'p-2' }, TOKEN, good)).toBe(false);
    expect(verifySignature({ ...BODY, stake: { amount: 2500, scale: 2 } }, TOKEN, good)).toBe(false);
    expect(verifySignature({ ...BODY, tags: ['b', 'a'] }, TOKEN, good)).toBe(false);
    expect(verifySignature({ ...BODY, extra: null }, TOKEN, good)).toBe(false);
    expect(verifySignature(undefined, TOKEN, good)).toBe(false);
  });

  it('round-trips any JSON body and token', () => {
    fc.assert(
      fc.property(body, token, (b, t) => {
        const header = signBody(b, t);
        expect(header).toMatch(/^[0-9a-f]{128}$/);
        expect(verifySignature(b, t, header)).toBe(true);
        expect(verifySignature(b, t, header.toUpperCase())).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('rejects any body whose canonical form differs from the signed one', () => {
    fc.assert(
      fc.property(body, body, token, (signed, sent, t) => {
        fc.pre(canonicalBody(signed) !== canonicalBody(sent));
        expect(verifySignature(sent, t, signBody(signed, t))).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('rejects a one-character tamper of the header', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: SIGNATURE_HEX_LENGTH - 1 }),
        fc.constantFrom(...'0123456789abcdef'),
        (i, c) => {
          fc.pre(good[i] !== c);
          expect(verifySignature(BODY, TOKEN, `${good.slice(0, i)}${c}${good.slice(i + 1)}`)).toBe(false);
        },
      ),
    );
  });

  it('rejects random header strings, hex or not', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string({ unit: 'binary', maxLength: 200 }),
          fc.stringMatching(/^[0-9a-fA-F]{128}$/),
        ),
        (header) => {
          expect(verifySignature(BODY, TOKEN, header)).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('never throws, whatever the header, body or token', () => {
    fc.assert(
      fc.property(
        fc.anything(),
        fc.anything({ withBigInt: true, withDate: true, withMap: true }),
        fc.anything(),
        (h, b, t) => {
          expect(typeof verifySignature(b, t as string, h as string)).toBe('boolean');
          expect(verifySignature(BODY, TOKEN, h as string)).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
  });
});
