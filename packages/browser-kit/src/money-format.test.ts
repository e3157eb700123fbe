import { findCurrency, toMajor } from '@raspa/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LANGS, type Lang } from './language.ts';
import { money, moneyOfMajor } from './money-format.ts';

/** One currency for each ISO 4217 exponent: 0, 2, 3 and 4 decimals. */
const CURRENCIES = ['JPY', 'BRL', 'KWD', 'CLF'] as const;
const DECIMAL_MARK: Record<Lang, string> = { pt: ',', en: '.', es: ',' };

/** The minor units a formatted amount shows, read back from its digits (symbols and grouping dropped). */
function readMinor(text: string, lang: Lang, exponent: number): bigint {
  const number = /[\d.,]+/.exec(text)?.[0] ?? '';
  const mark = DECIMAL_MARK[lang];
  const [whole = '', fraction = ''] = exponent === 0 ? [number] : number.split(mark);
  expect(fraction.length, text).toBe(exponent);
  const digits = BigInt(whole.replace(/[.,]/g, '') + fraction);
  return text.includes('-') ? -digits : digits;
}

describe('money for people', () => {
  it('is the locale of the page language, English as en-US on every page', () => {
    expect(money(1250, 'BRL', 'pt')).toBe('R$\u00a012,50');
    expect(money(1250, 'BRL', 'en')).toBe('R$12.50');
    expect(money(1250, 'BRL', 'es')).toBe('12,50\u00a0BRL');
    expect(money(100, 'USD', 'en')).toBe('$1.00');
    expect(money(5, 'JPY', 'en')).toBe('¥5');
    expect(money(123_456_789, 'KWD', 'en')).toBe('KWD\u00a0123,456.789');
  });

  it('shows every integer of minor units exactly, with the currency’s own decimals, in every language', () => {
    fc.assert(
      fc.property(
        fc.maxSafeInteger(),
        fc.constantFrom(...CURRENCIES),
        fc.constantFrom(...LANGS),
        (minor, currency, lang) => {
          const exponent = findCurrency(currency)?.exponent ?? -1;
          expect(readMinor(money(minor, currency, lang), lang, exponent)).toBe(BigInt(minor));
        },
      ),
    );
  });

  // Up to 15 significant digits: every such decimal survives the wire's double (JSON number)
  // exactly; past that the API's major units themselves cannot tell neighbouring amounts apart.
  it('shows a wire amount (major units) as the same minor units would be', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -(10 ** 15 - 1), max: 10 ** 15 - 1 }),
        fc.constantFrom(...CURRENCIES),
        fc.constantFrom(...LANGS),
        (minor, currency, lang) => {
          expect(moneyOfMajor(toMajor(minor, currency), currency, lang)).toBe(money(minor, currency, lang));
        },
      ),
    );
  });

  it('rounds a computed amount to the currency, and shows an unknown code or none as such', () => {
    expect(moneyOfMajor(0.1 + 0.2, 'BRL', 'en')).toBe('R$0.30');
    expect(moneyOfMajor(1234.5678, 'BRL', 'pt')).toBe('R$\u00a01.234,57');
    expect(moneyOfMajor(12.5, 'XYZ', 'en')).toBe('12.5 XYZ');
    expect(moneyOfMajor(null, 'BRL', 'en')).toBe('—');
  });
});
