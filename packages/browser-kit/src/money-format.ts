import { findCurrency, formatMoney, toMinor } from '@raspa/core';
import type { Lang } from './language.ts';
import { localeOf } from './locale.ts';
import { numberFormat } from './number-format.ts';

/**
 * Integer minor units as money for people: (1250, BRL, pt) → "R$ 12,50", (1250, BRL, en) →
 * "R$12.50". Exactly the currency's ISO 4217 decimals (core's formatMoney), never through a double.
 */
export const money = (minor: number, currency: string, lang: Lang): string =>
  formatMoney(minor, currency, localeOf(lang));

/**
 * An amount in major units, as the API sends it (12.5), as money; "—" for none. An amount the
 * currency holds exactly is formatted exactly (through minor units). A computed one (a chart's tick,
 * a sum of days) is rounded to the currency's decimals; a code that is not ISO 4217 shows the amount
 * as it came ("12.5 XYZ").
 */
export function moneyOfMajor(amount: number | null, currency: string, lang: Lang): string {
  if (amount === null) return '—';
  const exact = toMinor(amount, currency);
  if (exact.ok) return money(exact.minor, currency, lang);
  const known = findCurrency(currency);
  if (!known || !Number.isFinite(amount)) return `${amount} ${currency}`;
  const digits = known.exponent;
  return numberFormat(lang, {
    style: 'currency',
    currency,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(amount);
}
