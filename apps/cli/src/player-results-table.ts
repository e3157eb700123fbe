import { formatMoney, type Ladder, type PlayerResults } from '@raspa/core';

const count = new Intl.NumberFormat('en-US');
const percent = (x: number) => `${(x * 100).toFixed(2)}%`;

/** How N cards in a row end for a player, as plain text under the ladder table. */
export function renderPlayerResults(ladder: Ladder, results: PlayerResults, seed: number): string {
  const money = (minor: number) => formatMoney(minor, ladder.currency, 'en-US', { symbol: false });
  const signed = (minor: number) => (minor > 0 ? `+${money(minor)}` : money(minor));
  const cells = results.percentiles.map(({ percent: p, net }) => [`${p}%`, signed(net)] as const);
  const widths = cells.map(([head, value]) => Math.max(head.length, value.length));
  const row = (pick: 0 | 1) => cells.map((cell, i) => cell[pick].padStart(widths[i] ?? 0)).join('  ');
  return [
    `${count.format(results.cards)} cards in a row, ${count.format(results.trials)} players (seed ${seed}): ` +
      `${money(results.stake)} ${ladder.currency} staked each`,
    `chance to end ahead ${percent(results.aheadChance)} · at least even ${percent(results.evenOrAheadChance)} · ` +
      `no win at all ${percent(results.noWinChance)}`,
    `median result ${signed(results.median)} · average ${signed(results.mean)} (expected ${signed(results.expected)}) · ` +
      `worst ${signed(results.worst)} · best ${signed(results.best)}`,
    '',
    `percentile  ${row(0)}`,
    `result      ${row(1)}`,
  ].join('\n');
}
