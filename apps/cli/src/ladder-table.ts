import { formatMoney, LADDER_SHAPES, type Ladder, ladderStats } from '@raspa/core';

const count = new Intl.NumberFormat('en-US');
/** "1 in 6.41", "1 in 25.6", "1 in 16,667": enough digits to compare levels, no more. */
const odds = (x: number) =>
  `1 in ${x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : count.format(Math.round(x))}`;
const percent = (x: number) => `${(x * 100).toFixed(2)}%`;

/** The ladder as a plain-text table for a terminal: one row per level, then the totals. */
export function renderLadderTable(ladder: Ladder): string {
  const money = (minor: number) => formatMoney(minor, ladder.currency, 'en-US', { symbol: false });
  const stats = ladderStats(ladder);
  const rows = [
    ['level', 'winners', 'prize', 'total prize', 'share', 'odds'],
    ...ladder.levels.map((level, i) => [
      String(level.level),
      count.format(level.winners),
      money(level.prize),
      money(level.totalPrize),
      percent(level.percentage),
      odds(stats.levelOdds[i] ?? 0),
    ]),
    ['all', count.format(ladder.totalPrized), '', money(stats.totalPaid), '', odds(stats.overallOdds)],
  ];
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  const line = (row: string[]) =>
    row
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join('  ');
  const header = [
    `${ladder.gameModel} (${LADDER_SHAPES[ladder.gameModel].style})`,
    `ticket ${money(ladder.betPrice)} ${ladder.currency} · ${count.format(ladder.sampling)} tickets · ` +
      `rtp ${ladder.rtpPpm / 1e6} · ${percent(stats.hitRate)} of tickets win`,
    '',
  ];
  const footer = [
    '',
    `totalAmount ${money(ladder.totalAmount)} · totalDistribuitionAmount ${money(ladder.totalDistribuitionAmount)} · ` +
      `paid out ${money(stats.totalPaid)} (realised RTP ${stats.realisedRtp.toFixed(6)})`,
    `average win ${money(stats.averageWin)} · top prize ${money(ladder.maxBetPrize)} = ${count.format(
      Number(stats.topPrizeMultiple.toFixed(2)),
    )}× the ticket`,
  ];
  return [...header, line(rows[0] ?? []), ...rows.slice(1).map(line), ...footer].join('\n');
}
