import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exactRatio } from './exact-ratio.ts';

/** The exact value of a finite double as a fraction num / 2^k. */
function asFraction(value: number): { num: bigint; shift: bigint } {
  let shift = 0n;
  let scaled = value;
  while (!Number.isInteger(scaled)) {
    scaled *= 2;
    shift++;
  }
  return { num: BigInt(scaled), shift };
}

/** |a/b − value|, compared exactly: the distance of a double from the fraction, scaled by b·2^k. */
function distance(num: bigint, den: bigint, value: number, shift: bigint): bigint {
  const { num: v, shift: own } = asFraction(value);
  const d = (num << shift) - ((v * den) << (shift - own));
  return d < 0n ? -d : d;
}

const next = (value: number, up: boolean) => {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  view.setBigUint64(0, view.getBigUint64(0) + (up ? 1n : -1n));
  return view.getFloat64(0);
};

describe('exactRatio', () => {
  it('equals the division of doubles when both integers are exact doubles (IEEE division rounds once)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(2n ** 53n) + 1n, max: 2n ** 53n - 1n }),
        fc.bigInt({ min: 1n, max: 2n ** 53n - 1n }),
        (num, den) => {
          expect(exactRatio(num, den)).toBe(Number(num) / Number(den));
        },
      ),
    );
  });

  it('is no farther from the exact fraction than its neighbours, for integers far past 2^53', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 2n ** 200n }),
        fc.bigInt({ min: 1n, max: 2n ** 200n }),
        (num, den) => {
          const value = exactRatio(num, den);
          // A common scale fine enough for the value and both neighbours.
          const shift = [value, next(value, true), next(value, false)]
            .map((each) => asFraction(each).shift)
            .sort((a, b) => Number(b - a))[0] as bigint;
          const own = distance(num, den, value, shift);
          expect(own <= distance(num, den, next(value, true), shift)).toBe(true);
          expect(own <= distance(num, den, next(value, false), shift)).toBe(true);
        },
      ),
    );
  });

  it('is 0 for 0 and refuses a zero denominator', () => {
    expect(exactRatio(0n, 7n)).toBe(0);
    expect(exactRatio(3n, -4n)).toBe(-0.75);
    expect(() => exactRatio(1n, 0n)).toThrow(RangeError);
  });
});
