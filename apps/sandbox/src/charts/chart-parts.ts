import { svg } from '@raspa/browser-kit';

/** A chart's root: scales with its container, described for screen readers. */
export function chartRoot(width: number, height: number, label: string, kind: string): SVGSVGElement {
  return svg('svg', {
    viewBox: `0 0 ${width} ${height}`,
    role: 'img',
    'aria-label': label,
    class: `chart chart-${kind}`,
    'data-chart': kind,
    preserveAspectRatio: 'xMidYMid meet',
  });
}

/** A polyline's points attribute with 1-decimal coordinates. */
export function pointsOf(points: ReadonlyArray<readonly [number, number]>): string {
  return points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ');
}

/** "Nice" tick values covering [min, max]: steps of 1, 2 or 5 × 10^k. */
export function ticks(min: number, max: number, target = 5): number[] {
  if (!(max > min)) return [min];
  const raw = (max - min) / target;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 5, 10].find((m) => m * power >= raw) ?? 10) * power;
  const out: number[] = [];
  for (let value = Math.ceil(min / step) * step; value <= max + step * 1e-9; value += step) {
    out.push(Math.abs(value) < step * 1e-9 ? 0 : value);
  }
  return out;
}
