import { currencyExponent, findCurrency } from './currencies.ts';
import { decimalText, scaledInteger } from './decimal.ts';

export type MinorResult = { ok: true; minor: number } | { ok: false; message: string };

/**
 * A major-unit JSON amount (12.5 BRL) as an integer count of minor units (1250), exactly.
 * Refuses amounts with more decimals than the currency has, and amounts beyond the safe-integer range.
 */
export function toMinor(amount: number, currencyCode: string): MinorResult {
  const currency = findCurrency(currencyCode);
  if (!currency) return { ok: false, message: `${currencyCode} is not an ISO 4217 currency code` };
  if (!Number.isFinite(amount)) return { ok: false, message: 'must be a finite number' };
  const minor = scaledInteger(amount, currency.exponent);
  if (minor === undefined) {
    const allowed = currency.exponent === 0 ? 'no decimals' : `at most ${currency.exponent} decimals`;
    return { ok: false, message: `${amount} has too many decimals: ${currency.code} allows ${allowed}` };
  }
  if (minor > BigInt(Number.MAX_SAFE_INTEGER) || minor < BigInt(Number.MIN_SAFE_INTEGER)) {
    return { ok: false, message: `${amount} is too large` };
  }
  return { ok: true, minor: Number(minor) };
}

/** Minor units as the decimal text of the major amount: (1250, BRL) → "12.50", (5, JPY) → "5". */
export function formatAmount(minor: number, currencyCode: string): string {
  assertMinor(minor);
  return decimalText(minor, currencyExponent(currencyCode));
}

/**
 * Minor units as the JSON number of the major amount: (1250, BRL) → 12.5.
 * Goes through the decimal text, so the double is the one nearest the exact amount.
 */
export function toMajor(minor: number, currencyCode: string): number {
  return Number(formatAmount(minor, currencyCode));
}

/**
 * A localised amount for people: (1250, BRL, 'pt-BR') → "R$ 12,50"; with `symbol: false`
 * just the grouped number ("12,50").
 */
export function formatMoney(
  minor: number,
  currencyCode: string,
  locale: string,
  options: { symbol?: boolean } = {},
): string {
  const exponent = currencyExponent(currencyCode);
  const format = new Intl.NumberFormat(locale, {
    ...(options.symbol === false ? { style: 'decimal' } : { style: 'currency', currency: currencyCode }),
    minimumFractionDigits: exponent,
    maximumFractionDigits: exponent,
  });
  // Intl formats a decimal string exactly (no detour through a double).
  return format.format(formatAmount(minor, currencyCode) as Intl.StringNumericLiteral);
}

function assertMinor(minor: number): void {
  if (!Number.isSafeInteger(minor))
    throw new RangeError(`a minor-unit amount must be a safe integer, got ${minor}`);
}
