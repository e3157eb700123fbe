import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { barLayout, niceStep } from './bar-layout.ts';

const frame = { width: 600, height: 240, left: 60, bottom: 30, top: 10, right: 10 };
const amount = fc.double({ min: -1e7, max: 1e7, noNaN: true }).map((value) => Math.round(value * 100) / 100);

describe('niceStep', () => {
  it('is 1, 2 or 5 times a power of ten, splitting the span in at most the parts asked', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-3, max: 1e12, noNaN: true }), (span) => {
        const step = niceStep(span, 4);
        const mantissa = step / 10 ** Math.floor(Math.log10(step) + 1e-9);
        expect([1, 2, 5, 10].some((m) => Math.abs(mantissa - m) < 1e-6)).toBe(true);
        expect(span / step).toBeLessThanOrEqual(4 + 1e-9);
      }),
    );
  });
});

describe('barLayout', () => {
  it('keeps every bar inside the plot, growing from the zero line, its height proportional to its value', () => {
    fc.assert(
      fc.property(fc.array(amount, { minLength: 1, maxLength: 40 }), (values) => {
        const layout = barLayout(values, frame);
        const { plot } = layout;
        expect(layout.bars).toHaveLength(values.length);
        expect(layout.zeroY).toBeGreaterThanOrEqual(plot.top - 1e-6);
        expect(layout.zeroY).toBeLessThanOrEqual(plot.top + plot.height + 1e-6);
        const nonZero = layout.bars.filter((bar) => bar.value !== 0);
        for (const bar of layout.bars) {
          expect(bar.y).toBeGreaterThanOrEqual(plot.top - 1e-6);
          expect(bar.y + bar.height).toBeLessThanOrEqual(plot.top + plot.height + 1e-6);
          expect(bar.x + bar.width).toBeLessThanOrEqual(plot.left + plot.width + 1e-6);
          // A positive bar ends on the zero line, a negative one starts there.
          if (bar.negative) expect(bar.y).toBeCloseTo(layout.zeroY, 6);
          else expect(bar.y + bar.height).toBeCloseTo(layout.zeroY, 6);
        }
        const [first] = nonZero;
        if (first) {
          for (const bar of nonZero) {
            expect(bar.height / Math.abs(bar.value)).toBeCloseTo(first.height / Math.abs(first.value), 6);
          }
        }
      }),
    );
  });

  it('puts a gridline on 0 and spans from the lowest to the highest value', () => {
    const layout = barLayout([120, -35.5, 0, 80], frame);
    expect(layout.ticks.map((tick) => tick.value)).toEqual([-50, 0, 50, 100, 150]);
    expect(layout.ticks.find((tick) => tick.value === 0)?.y).toBeCloseTo(layout.zeroY, 9);
    expect(layout.bars[2]?.height).toBe(0);
  });

  it('draws a flat chart of zeros with a scale from 0', () => {
    const layout = barLayout([0, 0, 0], frame);
    expect(layout.zeroY).toBeCloseTo(frame.height - frame.bottom, 9);
    expect(layout.bars.every((bar) => bar.height === 0)).toBe(true);
  });
});
