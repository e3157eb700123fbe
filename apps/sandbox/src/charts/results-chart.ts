import { svg } from '@raspa/browser-kit';
import type { PlayerResults } from '@raspa/core';
import { axisMoney, percent, signedMoney, signedShortMoney } from '../ui/format.ts';
import { chartRoot, ticks } from './chart-parts.ts';

const WIDTH = 480;
const HEIGHT = 220;
const PAD = { left: 84, right: 12, top: 18, bottom: 30 };

/**
 * A player's result after N cards: 100 bars, each 1% of the players, sorted from the worst result
 * to the best; losses below the line, gains above. The best 1% usually dwarfs the rest: it is
 * clipped and labelled.
 */
export function resultsChart(results: PlayerResults, currency: string): SVGSVGElement {
  const bars = results.quantiles.slice(1);
  const yMin = Math.min(0, results.quantiles[0] ?? 0);
  let yMax = Math.max(0, results.quantiles[99] ?? 0);
  if (yMax <= 0) yMax = Math.max(Math.abs(yMin) * 0.15, 1);
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const barW = plotW / bars.length;
  const y = (net: number) => PAD.top + (1 - (Math.min(net, yMax) - yMin) / (yMax - yMin)) * plotH;
  const zero = y(0);
  const root = chartRoot(
    WIDTH,
    HEIGHT,
    `Result after ${results.cards} cards, players sorted from worst to best: median ${signedMoney(
      results.median,
      currency,
    )}, ${percent(results.aheadChance)} end ahead`,
    'results',
  );
  root.dataset.median = String(results.median);
  for (const value of ticks(yMin, yMax, 4)) {
    root.append(
      svg('line', { x1: PAD.left, x2: WIDTH - PAD.right, y1: y(value), y2: y(value), class: 'grid' }),
      svg('text', { x: PAD.left - 6, y: y(value) + 4, class: 'axis', 'text-anchor': 'end' }, [
        axisMoney(Math.round(value), currency),
      ]),
    );
  }
  bars.forEach((net, i) => {
    const top = Math.min(y(net), zero);
    root.append(
      svg('rect', {
        x: PAD.left + i * barW + 0.5,
        y: top,
        width: Math.max(0.5, barW - 1),
        height: Math.max(0.5, Math.abs(y(net) - zero)),
        class: net > 0 ? 'bar-gain' : 'bar-loss',
      }),
    );
  });
  root.append(svg('line', { x1: PAD.left, x2: WIDTH - PAD.right, y1: zero, y2: zero, class: 'zero' }));
  const medianX = PAD.left + 49.5 * barW;
  root.append(
    svg('line', { x1: medianX, x2: medianX, y1: PAD.top, y2: HEIGHT - PAD.bottom, class: 'marker' }),
    svg('text', { x: medianX + 4, y: PAD.top + 10, class: 'axis' }, [
      `median ${signedShortMoney(results.median, currency)}`,
    ]),
  );
  if ((results.quantiles[100] ?? 0) > yMax) {
    root.append(
      svg('text', { x: WIDTH - PAD.right, y: PAD.top - 4, class: 'axis clipped', 'text-anchor': 'end' }, [
        `best ↑ ${signedShortMoney(results.best, currency)}`,
      ]),
    );
  }
  for (const [share, label] of [
    [0, 'worst'],
    [0.5, '50%'],
    [1, 'best'],
  ] as const) {
    root.append(
      svg(
        'text',
        {
          x: PAD.left + share * plotW,
          y: HEIGHT - 8,
          class: 'axis',
          'text-anchor': share === 0 ? 'start' : share === 1 ? 'end' : 'middle',
        },
        [label],
      ),
    );
  }
  return root;
}
