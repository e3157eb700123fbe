import { svg } from '@raspa/browser-kit';
import type { PoolSimulationState } from '@raspa/core';
import { count, percent } from '../ui/format.ts';
import { chartRoot, pointsOf, ticks } from './chart-parts.ts';

const WIDTH = 480;
const HEIGHT = 220;
const PAD = { left: 48, right: 14, top: 14, bottom: 30 };

/**
 * The running RTP over the pool as it is drawn, against the ladder's RTP (dashed), with a tick
 * under each top prize drawn. Early spikes beyond the scale are clipped and labelled.
 */
export function rtpChart(state: PoolSimulationState, target: number): SVGSVGElement {
  const { curve } = state;
  const values = curve.map((point) => point.rtp);
  const peak = Math.max(target, ...values);
  const yMax = Math.max(target * 1.25, Math.min(peak, target * 3));
  const yMin = Math.max(0, Math.min(target * 0.75, ...values));
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const x = (tickets: number) => PAD.left + (tickets / state.tickets) * plotW;
  const y = (rtp: number) => PAD.top + (1 - (Math.min(rtp, yMax) - yMin) / (yMax - yMin)) * plotH;
  const last = curve.at(-1);
  const root = chartRoot(
    WIDTH,
    HEIGHT,
    last
      ? `Running RTP over ${count(last.tickets)} tickets drawn: ${percent(last.rtp)} (ladder ${percent(target)})`
      : 'Running RTP: nothing drawn yet',
    'rtp',
  );
  root.dataset.points = String(curve.length);
  if (last) root.dataset.last = last.rtp.toFixed(6);

  for (const value of ticks(yMin, yMax, 4)) {
    root.append(
      svg('line', { x1: PAD.left, x2: WIDTH - PAD.right, y1: y(value), y2: y(value), class: 'grid' }),
      svg('text', { x: PAD.left - 6, y: y(value) + 4, class: 'axis', 'text-anchor': 'end' }, [
        percent(value, 0),
      ]),
    );
  }
  for (const share of [0, 0.25, 0.5, 0.75, 1]) {
    root.append(
      svg(
        'text',
        {
          x: x(share * state.tickets),
          y: HEIGHT - 8,
          class: 'axis',
          'text-anchor': share === 1 ? 'end' : 'middle',
        },
        [share === 0 ? '0' : count(Math.round(share * state.tickets))],
      ),
    );
  }
  root.append(
    svg('line', { x1: PAD.left, x2: WIDTH - PAD.right, y1: y(target), y2: y(target), class: 'target' }),
    svg(
      'text',
      { x: WIDTH - PAD.right, y: y(target) - 5, class: 'axis target-label', 'text-anchor': 'end' },
      [`ladder ${percent(target)}`],
    ),
  );
  if (state.topPrizeDraws.length > 0) {
    const base = HEIGHT - PAD.bottom;
    const d = state.topPrizeDraws.map((draw) => `M${x(draw + 1).toFixed(1)},${base}v-7`).join('');
    root.append(svg('path', { d, class: 'jackpot' }, [svg('title', {}, ['a top prize drawn'])]));
  }
  if (curve.length > 0) {
    root.append(
      svg('polyline', {
        points: pointsOf([
          [x(0), y(curve[0]?.rtp ?? 0)],
          ...curve.map((p) => [x(p.tickets), y(p.rtp)] as const),
        ]),
        class: 'line',
      }),
    );
    const clipped = curve.filter((point) => point.rtp > yMax);
    const highest = clipped.reduce<(typeof clipped)[number] | undefined>(
      (best, point) => (best && best.rtp >= point.rtp ? best : point),
      undefined,
    );
    if (highest) {
      root.append(
        svg(
          'text',
          { x: Math.min(x(highest.tickets) + 6, WIDTH - 120), y: PAD.top + 12, class: 'axis clipped' },
          [`↑ ${percent(highest.rtp, 0)} after ${count(highest.tickets)}`],
        ),
      );
    }
  }
  return root;
}
