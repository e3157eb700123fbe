/**
 * A fraction of integers as the nearest double (ties to even): rounded once, from the exact value,
 * so a figure does not depend on the order of float operations or on the platform.
 */
export function exactRatio(numerator: bigint, denominator: bigint): number {
  if (denominator === 0n) throw new RangeError('a ratio needs a denominator other than 0');
  if (denominator < 0n) return exactRatio(-numerator, -denominator);
  if (numerator < 0n) return -exactRatio(-numerator, denominator);
  if (numerator === 0n) return 0;
  // Scale so the quotient has at least 55 bits: its lowest bit then lies below the rounding bit
  // of a double's 53, and a non-zero remainder set there ("sticky") breaks a false tie.
  const shift = Math.max(0, 55 + bitLength(denominator) - bitLength(numerator));
  const scaled = numerator << BigInt(shift);
  let quotient = scaled / denominator;
  if (scaled % denominator !== 0n) quotient |= 1n;
  // Number(bigint) rounds to nearest, ties to even; dividing by a power of two is then exact.
  return Number(quotient) / 2 ** shift;
}

const bitLength = (value: bigint) => value.toString(2).length;
