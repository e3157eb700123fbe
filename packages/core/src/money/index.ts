export { CURRENCIES, type Currency, currencyExponent, findCurrency, isCurrencyCode } from './currencies.ts';
export { type Decimal, decimalOf, decimalPlaces, decimalText, scaledInteger } from './decimal.ts';
export { formatAmount, formatMoney, type MinorResult, toMajor, toMinor } from './money.ts';
