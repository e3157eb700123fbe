/** Where the bars of a chart sit, in the SVG's own units: pure, so it is tested without a browser. */
export interface BarLayout {
  bars: Array<{ x: number; y: number; width: number; height: number; value: number; negative: boolean }>;
  /** The y of the value 0 (the axis the bars grow from). */
  zeroY: number;
  /** Gridlines: a round value and its y. */
  ticks: Array<{ value: number; y: number }>;
  plot: { left: number; top: number; width: number; height: number };
}

export interface BarFrame {
  width: number;
  height: number;
  /** Room for the value labels on the left and the day labels at the bottom. */
  left: number;
  bottom: number;
  top: number;
  right: number;
}

/** A round step (1, 2 or 5 × 10^n) that splits `span` into about `parts` gridlines. */
export function niceStep(span: number, parts = 4): number {
  if (!(span > 0)) return 1;
  const raw = span / parts;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= raw);
  return step ?? 10 * power;
}

/**
 * Bars for `values` in a frame: the scale always holds 0 and every value (a day with a negative GGR
 * grows down from the axis), rounded out to whole gridline steps.
 */
export function barLayout(values: readonly number[], frame: BarFrame): BarLayout {
  const plot = {
    left: frame.left,
    top: frame.top,
    width: frame.width - frame.left - frame.right,
    height: frame.height - frame.top - frame.bottom,
  };
  const high = Math.max(0, ...values);
  const low = Math.min(0, ...values);
  const step = niceStep(high - low);
  const top = high === 0 && low === 0 ? step : Math.ceil(high / step) * step;
  const bottom = Math.floor(low / step) * step;
  const scale = plot.height / (top - bottom);
  const yOf = (value: number) => plot.top + (top - value) * scale;
  const zeroY = yOf(0);
  const slot = values.length > 0 ? plot.width / values.length : plot.width;
  const gap = Math.min(slot * 0.2, 6);
  const bars = values.map((value, index) => {
    const y = Math.min(yOf(value), zeroY);
    return {
      x: plot.left + index * slot + gap / 2,
      y,
      width: Math.max(1, slot - gap),
      height: Math.abs(yOf(value) - zeroY),
      value,
      negative: value < 0,
    };
  });
  const ticks: BarLayout['ticks'] = [];
  // Integer steps of the gridline value, so no binary fraction piles up (0.1 + 0.2…).
  const count = Math.round((top - bottom) / step);
  for (let index = 0; index <= count; index += 1) {
    const value = Number((bottom + index * step).toPrecision(12));
    ticks.push({ value, y: yOf(value) });
  }
  return { bars, zeroY, ticks, plot };
}
