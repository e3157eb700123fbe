import { svg } from '@raspa/browser-kit';
import type { Ladder } from '@raspa/core';
import { money, percent } from '../ui/format.ts';
import { chartRoot } from './chart-parts.ts';

const WIDTH = 480;
const ROW = 30;
const TOP = 26;
const LABEL = 150;
const BAR_END = WIDTH - 58;

/**
 * Where the money goes: for each level, its share of the money paid out (solid) beside its share
 * of the winning tickets (light), on one scale, so a jackpot-heavy model shows at a glance.
 */
export function moneyChart(ladder: Ladder): SVGSVGElement {
  const paid = ladder.levels.reduce((sum, level) => sum + level.totalPrize, 0);
  const rows = ladder.levels.map((level) => ({
    level: level.level,
    prize: level.prize,
    money: level.totalPrize / paid,
    winners: level.winners / ladder.totalPrized,
  }));
  const top = rows.reduce((max, row) => Math.max(max, row.money, row.winners), 0) || 1;
  const scale = (share: number) => (share / top) * (BAR_END - LABEL);
  const height = TOP + rows.length * ROW + 4;
  const biggest = rows.reduce((best, row) => (row.money > best.money ? row : best));
  const root = chartRoot(
    WIDTH,
    height,
    `Share of the money paid out per level; level ${biggest.level} takes the most, ${percent(biggest.money)}`,
    'money',
  );
  root.dataset.shares = rows.map((row) => row.money.toFixed(6)).join(' ');
  root.append(
    svg('text', { x: 0, y: 15, class: 'legend' }, ['Level']),
    svg('text', { x: LABEL - 8, y: 15, class: 'legend', 'text-anchor': 'end' }, ['Prize']),
    svg('rect', { x: LABEL, y: 6, width: 10, height: 10, class: 'bar-money' }),
    svg('text', { x: LABEL + 14, y: 15, class: 'legend' }, ['money paid out']),
    svg('rect', { x: LABEL + 130, y: 9, width: 10, height: 5, class: 'bar-winners' }),
    svg('text', { x: LABEL + 144, y: 15, class: 'legend' }, ['winning tickets']),
  );
  rows.forEach((row, i) => {
    const y = TOP + i * ROW;
    root.append(
      svg('text', { x: 4, y: y + 17, class: 'label' }, [String(row.level)]),
      svg('text', { x: LABEL - 8, y: y + 17, class: 'label value', 'text-anchor': 'end' }, [
        money(row.prize, ladder.currency),
      ]),
      svg('rect', {
        x: LABEL,
        y: y + 4,
        width: Math.max(1, scale(row.money)),
        height: 14,
        rx: 2,
        class: 'bar-money',
        'data-level': row.level,
      }),
      svg('rect', {
        x: LABEL,
        y: y + 20,
        width: Math.max(1, scale(row.winners)),
        height: 5,
        rx: 1,
        class: 'bar-winners',
      }),
      svg('text', { x: BAR_END + 6, y: y + 16, class: 'label value' }, [percent(row.money, 1)]),
    );
  });
  return root;
}
