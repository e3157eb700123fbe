import currencyCodes from 'currency-codes';

export interface Currency {
  code: string;
  name: string;
  /** ISO 4217 minor-unit exponent: BRL 2, JPY 0, KWD 3. */
  exponent: number;
}

// ISO 4217 gives these metals, drawing rights, bond units and test codes the minor unit
// "N.A."; the package flattens that to 0, so they are named here and left out.
const NO_MINOR_UNIT = new Set([
  'XAG',
  'XAU',
  'XBA',
  'XBB',
  'XBC',
  'XBD',
  'XDR',
  'XPD',
  'XPT',
  'XSU',
  'XTS',
  'XUA',
  'XXX',
]);

/** Every ISO 4217 currency a game can be priced in, from the maintained `currency-codes` table. */
export const CURRENCIES: readonly Currency[] = currencyCodes.data
  .filter((record) => !NO_MINOR_UNIT.has(record.code))
  .map((record) => ({ code: record.code, name: record.currency, exponent: record.digits }))
  .sort((a, b) => (a.code < b.code ? -1 : 1));

const byCode = new Map(CURRENCIES.map((currency) => [currency.code, currency]));

export function findCurrency(code: string): Currency | undefined {
  return byCode.get(code);
}

export function isCurrencyCode(code: string): boolean {
  return byCode.has(code);
}

/** The minor-unit exponent of a known currency; throws for an unknown code (validate first). */
export function currencyExponent(code: string): number {
  const currency = byCode.get(code);
  if (!currency) throw new RangeError(`unknown ISO 4217 currency: ${code}`);
  return currency.exponent;
}
