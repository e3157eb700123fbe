/**
 * Exact reading of a JSON number as a decimal. A JS number is a binary double, but the
 * number a client wrote (12.5, 0.95) is recovered exactly from its shortest round-trip
 * string, which is what JSON.parse produced it from. No float arithmetic happens here.
 */
export interface Decimal {
  /** value = units / 10^scale, with the smallest scale (no trailing zeros). */
  units: bigint;
  scale: number;
}

const NUMBER_TEXT = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/;

export function decimalOf(value: number): Decimal {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  const match = NUMBER_TEXT.exec(String(value));
  if (!match) throw new RangeError(`unreadable number: ${value}`);
  const [, sign = '', whole = '0', fraction = '', exponent = '0'] = match;
  let digits = (whole + fraction).replace(/^0+(?=\d)/, '');
  let scale = fraction.length - Number(exponent);
  if (scale < 0) {
    digits += '0'.repeat(-scale);
    scale = 0;
  }
  while (scale > 0 && digits.length > 1 && digits.endsWith('0')) {
    digits = digits.slice(0, -1);
    scale--;
  }
  const units = BigInt(digits);
  return { units: sign === '-' ? -units : units, scale: units === 0n ? 0 : scale };
}

/** How many decimals a number was written with (0.95 → 2, 1e-7 → 7, 100 → 0). */
export function decimalPlaces(value: number): number {
  return decimalOf(value).scale;
}

/**
 * The number × 10^exponent as an integer, or undefined when it has more decimals than that.
 * E.g. scaledInteger(12.5, 2) = 1250, scaledInteger(0.001, 2) = undefined.
 */
export function scaledInteger(value: number, exponent: number): bigint | undefined {
  const { units, scale } = decimalOf(value);
  if (scale > exponent) return undefined;
  return units * 10n ** BigInt(exponent - scale);
}

/** The decimal text of units / 10^exponent, always with exactly `exponent` decimals. */
export function decimalText(units: bigint | number, exponent: number): string {
  const big = BigInt(units);
  const negative = big < 0n;
  const digits = (negative ? -big : big).toString().padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent);
  const fraction = exponent > 0 ? `.${digits.slice(digits.length - exponent)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}
