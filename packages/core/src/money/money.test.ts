import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CURRENCIES, currencyExponent, findCurrency } from './currencies.ts';
import { decimalOf, decimalText } from './decimal.ts';
import { formatAmount, formatMoney, toMajor, toMinor } from './money.ts';

describe('ISO 4217 table', () => {
  it('knows the exponents of BRL, JPY, KWD, CLF', () => {
    expect(currencyExponent('BRL')).toBe(2);
    expect(currencyExponent('JPY')).toBe(0);
    expect(currencyExponent('KWD')).toBe(3);
    expect(currencyExponent('CLF')).toBe(4);
  });

  it('leaves out metals and funds that have no minor unit', () => {
    for (const code of ['XAU', 'XAG', 'XDR', 'XTS', 'XXX']) expect(findCurrency(code)).toBeUndefined();
    expect(findCurrency('XOF')?.exponent).toBe(0);
  });

  it('is sorted, unique and has only three-letter codes', () => {
    const codes = CURRENCIES.map((currency) => currency.code);
    expect(codes.length).toBeGreaterThan(150);
    expect([...new Set(codes)].sort()).toEqual(codes);
    for (const code of codes) expect(code).toMatch(/^[A-Z]{3}$/);
  });

  it('throws on an unknown code', () => {
    expect(() => currencyExponent('ABC')).toThrow(/unknown ISO 4217/);
  });
});

describe('decimalOf', () => {
  it.each([
    [12.5, 125n, 1],
    [0.95, 95n, 2],
    [100, 100n, 0],
    [1e-7, 1n, 7],
    [1.5e21, 1500000000000000000000n, 0],
    [-0.01, -1n, 2],
    [0, 0n, 0],
  ])('reads %s exactly', (value, units, scale) => {
    expect(decimalOf(value)).toEqual({ units, scale });
  });

  it('refuses NaN and Infinity', () => {
    expect(() => decimalOf(Number.NaN)).toThrow();
    expect(() => decimalOf(Number.POSITIVE_INFINITY)).toThrow();
  });
});

describe('toMinor / toMajor', () => {
  it('converts exactly where floats would not', () => {
    expect(toMinor(0.1 + 0.2, 'BRL')).toMatchObject({ ok: false });
    expect(toMinor(19.99, 'BRL')).toEqual({ ok: true, minor: 1999 });
    expect(toMinor(1.005, 'KWD')).toEqual({ ok: true, minor: 1005 });
    expect(toMinor(500, 'JPY')).toEqual({ ok: true, minor: 500 });
  });

  it('refuses more decimals than the currency allows, with a reason', () => {
    expect(toMinor(0.001, 'BRL')).toEqual({
      ok: false,
      message: '0.001 has too many decimals: BRL allows at most 2 decimals',
    });
    expect(toMinor(1.5, 'JPY')).toEqual({
      ok: false,
      message: '1.5 has too many decimals: JPY allows no decimals',
    });
    expect(toMinor(1.0001, 'KWD')).toMatchObject({ ok: false });
    expect(toMinor(1, 'ZZZ')).toEqual({ ok: false, message: 'ZZZ is not an ISO 4217 currency code' });
    expect(toMinor(Number.NaN, 'BRL')).toMatchObject({ ok: false });
    expect(toMinor(1e300, 'BRL')).toMatchObject({ ok: false, message: expect.stringMatching(/too large/) });
  });

  it('round-trips every safe minor amount of every exponent', () => {
    const codes = ['BRL', 'JPY', 'KWD', 'CLF'];
    fc.assert(
      fc.property(fc.constantFrom(...codes), fc.integer({ min: -1e15, max: 1e15 }), (code, minor) => {
        expect(toMinor(toMajor(minor, code), code)).toEqual({ ok: true, minor: minor === 0 ? 0 : minor });
      }),
      { numRuns: 5000 },
    );
  });

  it('agrees with the written decimal text', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 15n }),
        fc.integer({ min: 0, max: 4 }),
        (units, exponent) => {
          const text = decimalText(units, exponent);
          expect(
            decimalOf(Number(text)).units * 10n ** BigInt(exponent - decimalOf(Number(text)).scale),
          ).toBe(units);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('formatting', () => {
  it('prints the major amount with the currency exponent', () => {
    expect(formatAmount(1250, 'BRL')).toBe('12.50');
    expect(formatAmount(5, 'BRL')).toBe('0.05');
    expect(formatAmount(-5, 'KWD')).toBe('-0.005');
    expect(formatAmount(5, 'JPY')).toBe('5');
    expect(toMajor(1250, 'BRL')).toBe(12.5);
  });

  it('formats for people in their locale, exactly', () => {
    expect(formatMoney(1250, 'BRL', 'pt-BR')).toBe('R$\u00a012,50');
    expect(formatMoney(1250, 'JPY', 'en-US')).toBe('¥1,250');
    expect(formatMoney(9_007_199_254_740_991, 'BRL', 'en-US')).toBe('R$90,071,992,547,409.91');
    expect(formatMoney(123_456_789, 'KWD', 'en-US', { symbol: false })).toBe('123,456.789');
  });

  it('refuses a non-integer minor amount', () => {
    expect(() => formatAmount(1.5, 'BRL')).toThrow(/safe integer/);
  });
});
