import type { ReportRow } from '@raspa/server/wire';
import { daysBetween } from './periods.ts';

/** Money sums of report rows, per currency (amounts in major units, summed in minor-unit-safe cents). */
export interface Totals {
  currency: string;
  rounds: number;
  bets: number;
  prizes: number;
  rollbacks: number;
  ggr: number;
  /** prizes / bets; null without bets. */
  rtp: number | null;
}

/**
 * Adds major amounts without the drift of binary fractions: each is scaled to an integer of at most
 * 4 decimals (ISO 4217 has none finer) and the sum scaled back.
 */
const addMajor = (values: readonly number[]) =>
  values.reduce((sum, value) => sum + Math.round(value * 10_000), 0) / 10_000;

/** The rows of one currency summed (e.g. the days of a period), or a row of zeros when none. */
export function sumRows(rows: readonly ReportRow[], currency: string): Totals {
  const mine = rows.filter((row) => row.currency === currency);
  const bets = addMajor(mine.map((row) => row.bets));
  const prizes = addMajor(mine.map((row) => row.prizes));
  const rollbacks = addMajor(mine.map((row) => row.rollbacks));
  return {
    currency,
    rounds: mine.reduce((sum, row) => sum + row.rounds, 0),
    bets,
    prizes,
    rollbacks,
    ggr: addMajor(mine.map((row) => row.ggr)),
    rtp: bets === 0 ? null : prizes / bets,
  };
}

/** The currencies present in the rows, in the order they first appear. */
export const currenciesOf = (rows: readonly ReportRow[]) => [...new Set(rows.map((row) => row.currency))];

/** A day's GGR in one currency, for the chart: every day of the range, 0 where nothing was played. */
export interface DayPoint {
  day: string;
  ggr: number;
}

/** The daily GGR of one currency over dateStart..dateEnd from `groupBy=day` rows (keys are UTC days). */
export function dailyGgr(
  rows: readonly ReportRow[],
  currency: string,
  dateStart: string,
  dateEnd: string,
): DayPoint[] {
  const byDay = new Map(rows.filter((row) => row.currency === currency).map((row) => [row.key, row.ggr]));
  return daysBetween(dateStart, dateEnd).map((day) => ({ day, ggr: byDay.get(day) ?? 0 }));
}

/** A game's figures over a period against what it was configured for. */
export interface GameFigures extends Totals {
  gameId: string;
  /** The configured RTP of the game version; null for a game the panel could not read. */
  configuredRtp: number | null;
  /** realised − configured, in RTP points; null when either is unknown. */
  rtpGap: number | null;
}

/** One line per game and currency of a `groupBy=game` report, biggest GGR first. */
export function gameFigures(
  rows: readonly ReportRow[],
  configuredRtp: ReadonlyMap<string, number>,
): GameFigures[] {
  return rows
    .map((row) => {
      const totals = sumRows([row], row.currency);
      const configured = configuredRtp.get(row.key) ?? null;
      return {
        ...totals,
        gameId: row.key,
        configuredRtp: configured,
        rtpGap: configured === null || totals.rtp === null ? null : totals.rtp - configured,
      };
    })
    .sort((a, b) => b.ggr - a.ggr || a.gameId.localeCompare(b.gameId));
}
