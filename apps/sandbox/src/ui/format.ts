import { count as kitCount, money as kitMoney, numberFormat } from '@raspa/browser-kit';
import { toMajor } from '@raspa/core';

/**
 * The sandbox reads in English (the kit's en locale) with the currency's own symbol: figures for
 * designers, not players. What is its own here is the designer's notation (odds, signs, axes).
 */
const LANG = 'en';

export const count = (value: number): string => kitCount(value, LANG);

/** "1 in 3.33", "1 in 25.6", "1 in 16,667" (as the CLI prints it). */
export function odds(x: number): string {
  if (!Number.isFinite(x)) return '—';
  return `1 in ${x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : count(Math.round(x))}`;
}

/** Fixed decimals, so a column of percentages lines up: "95.00%". */
export const percent = (x: number, digits = 2): string => `${(x * 100).toFixed(digits)}%`;

export const money = (minor: number, currency: string): string => kitMoney(minor, currency, LANG);

/** A true minus sign (U+2212): it reads better and a line never breaks after it. */
const withMinus = (text: string): string => text.replace(/^-/, '\u2212');

/** A result with its sign: "+R$12.00", "−R$3.50", "R$0.00". */
export const signedMoney = (minor: number, currency: string): string =>
  minor > 0 ? `+${money(minor, currency)}` : withMinus(money(minor, currency));

/** "12,345×" with up to two decimals. */
export const multiple = (x: number): string =>
  `${numberFormat(LANG, { maximumFractionDigits: 2 }).format(x)}×`;

export const seconds = (ms: number): string => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;

/**
 * Money short enough for a tile or an axis: exact below a million ("R$21.68"), compact above
 * ("R$1.62M"). For display only; every figure stays exact in the tables.
 */
export function shortMoney(minor: number, currency: string): string {
  const major = toMajor(minor, currency);
  if (Math.abs(major) < 1_000_000) return money(minor, currency);
  return numberFormat(LANG, {
    style: 'currency',
    currency,
    notation: 'compact',
    maximumSignificantDigits: 3,
  }).format(major);
}

/** shortMoney with its sign. */
export const signedShortMoney = (minor: number, currency: string): string =>
  minor > 0 ? `+${shortMoney(minor, currency)}` : withMinus(shortMoney(minor, currency));

/** An axis label: whole currency units, compact past a thousand ("-R$100", "+R$1.2K"). */
export function axisMoney(minor: number, currency: string): string {
  const major = toMajor(minor, currency);
  const text = numberFormat(LANG, {
    style: 'currency',
    currency,
    notation: Math.abs(major) >= 1000 ? 'compact' : 'standard',
    maximumFractionDigits: Math.abs(major) >= 10 || major === 0 ? 0 : 2,
    minimumFractionDigits: 0,
  }).format(major);
  return major > 0 ? `+${text}` : withMinus(text);
}
