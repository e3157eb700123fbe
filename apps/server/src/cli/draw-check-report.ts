import { type ChiSquareTest, DRAW_ORDER_SEGMENTS, type DrawCheck, formatAmount } from '@raspa/core';
import type { GameRecord } from '../store/records.ts';

const count = (value: number) => value.toLocaleString('en-US');
const mark = (ok: boolean) => (ok ? 'ok  ' : 'FAIL');
const testLine = (test: ChiSquareTest) =>
  `X² = ${test.statistic.toFixed(2)}, df = ${test.df}, p = ${test.pValue.toPrecision(3)}`;

/** `pnpm simulate`'s summary (docs/games.md, "Simulating the draw"), as lines for stdout. */
export function drawCheckReport(game: GameRecord, check: DrawCheck, seedHex: string): string[] {
  const whole = check.pools.filter((pool) => pool.whole);
  const partial = check.pools.find((pool) => !pool.whole);
  const rows = check.ladderCounts
    .map((perPool, level) => {
      const prize =
        level === 0
          ? '(losing)'
          : `${formatAmount(game.ladder.levels[level - 1]?.prize ?? 0, game.currency)} ${game.currency}`;
      const expected = (perPool * check.cards) / check.sampling;
      const exact = whole.filter((pool) => pool.levelCounts[level] === perPool).length;
      return [
        String(level),
        prize,
        count(perPool),
        expected.toLocaleString('en-US', { maximumFractionDigits: 1 }),
        count(check.levelTotals[level] ?? 0),
        whole.length === 0 ? '-' : `${exact} of ${whole.length}`,
      ];
    })
    .reverse();
  const header = ['level', 'prize', 'per pool', 'expected', 'drawn', 'whole pools exact'];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)),
  );
  const line = (cells: string[]) =>
    `  ${cells.map((cell, column) => (column === 1 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ')}`;

  const lines = [
    `Simulation of game ${game.id} (${game.gameModel} version ${game.version}): ${count(check.cards)} cards`,
    `  drawn in memory through the service's pool code, ${check.pools.length} pool${check.pools.length === 1 ? '' : 's'} of ${count(check.sampling)} tickets`,
    `  each pool's seed derived from the run's seed ${seedHex} (--seed repeats the run);`,
    '  no pool of the database was read or changed',
    '',
    line(header),
    ...rows.map(line),
    '',
  ];
  const wholeOk = whole.every((pool) => pool.countsHold);
  if (whole.length > 0) {
    lines.push(
      `  ${mark(wholeOk)} every whole pool (${whole.length}) holds exactly the ladder's tickets of each level` +
        (wholeOk
          ? ''
          : `: not pool ${whole
              .filter((pool) => !pool.countsHold)
              .map((pool) => pool.number)
              .join(', ')}`),
    );
  }
  if (partial) {
    lines.push(
      `  ${mark(partial.countsHold)} pool ${partial.number}, ${count(partial.drawn)} of ${count(check.sampling)} drawn, holds no level beyond the ladder's count`,
    );
  }
  lines.push(
    `  ${mark(check.order.pValue >= check.alpha)} chi-square of the level frequencies along the draw order ` +
      `(${DRAW_ORDER_SEGMENTS} parts of each pool, rare levels merged): ${check.order.df === 0 ? 'too few tickets to test' : testLine(check.order)}`,
  );
  if (check.partialPool) {
    lines.push(
      `  ${mark(check.partialPool.pValue >= check.alpha)} chi-square of pool ${check.partialPool.number}'s level frequencies ` +
        `against the ladder (finite-population corrected): ${check.partialPool.df === 0 ? 'too few tickets to test' : testLine(check.partialPool)}`,
    );
  }
  lines.push(
    '',
    check.ok
      ? `OK: the draw holds the ladder, and no chi-square test falls below p = ${check.alpha}.`
      : `FAILED: a check of the draw failed (a chi-square test fails below p = ${check.alpha}).`,
  );
  return lines;
}
