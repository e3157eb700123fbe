import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LANGS } from './language.ts';
import { count, decimal, numberFormat, percent } from './number-format.ts';

describe('numbers for people', () => {
  it('group, round and show percentages in the page language', () => {
    expect(count(100_001, 'en')).toBe('100,001');
    expect(count(100_001, 'es')).toBe('100.001');
    expect(count(1_000_001, 'pt')).toBe('1.000.001');
    expect(decimal(7.2468, 'en')).toBe('7.2');
    expect(decimal(7.2468, 'pt', 2)).toBe('7,25');
    expect(percent(0.9512, 'en')).toBe('95.12%');
    expect(percent(0.9512, 'pt', 1)).toBe('95,1%');
  });

  it('count every safe integer exactly, whatever the grouping', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), fc.constantFrom(...LANGS), (value, lang) => {
        const text = count(value, lang);
        expect(BigInt(text.replace(/[^\d]/g, '')) * (text.startsWith('-') ? -1n : 1n)).toBe(BigInt(value));
      }),
    );
  });

  it('build one formatter per language and options', () => {
    expect(numberFormat('en', { maximumFractionDigits: 2 })).toBe(
      numberFormat('en', { maximumFractionDigits: 2 }),
    );
    expect(numberFormat('en')).not.toBe(numberFormat('pt'));
  });
});
