import { type CsvCellKind, toCsvTables } from '../csv/csv.ts';
import type { Ladder } from '../ladder/ladder-types.ts';
import type { GameModel } from '../models.ts';
import { toMajor } from '../money/money.ts';
import { type ParSheet, type ParSheetLevel, parSheet } from './par-sheet.ts';

/**
 * A PAR sheet as it travels (docs/contract.md §17): `GET /v1/game/{id}/par-sheet` answers it for a
 * game version, the sandbox exports it for a model being tuned (no version yet: `gameId` and
 * `version` are null, as the spec's simulation answers `id` and `version`). Money (`betPrice`, the
 * levels' `prize`) in major units.
 */
export interface ParSheetDocument<
  Id extends string | null = string | null,
  Version extends number | null = number | null,
> extends ParSheet {
  gameId: Id;
  version: Version;
  gameModel: GameModel;
}

/** The PAR sheet of a ladder (`parSheet`), its money turned into the ladder currency's major units. */
export function parSheetDocument<Id extends string | null, Version extends number | null>(
  ladder: Ladder,
  identity: { gameId: Id; version: Version },
): ParSheetDocument<Id, Version> {
  const sheet = parSheet(ladder);
  const major = (minor: number) => toMajor(minor, ladder.currency);
  return {
    gameId: identity.gameId,
    version: identity.version,
    gameModel: ladder.gameModel,
    betPrice: major(sheet.betPrice),
    sampling: sheet.sampling,
    rtp: sheet.rtp,
    hitFrequency: sheet.hitFrequency,
    stdDev: sheet.stdDev,
    maxWinMultiple: sheet.maxWinMultiple,
    levels: sheet.levels.map((level) => ({ ...level, prize: major(level.prize) })),
    ranges: sheet.ranges,
  };
}

const FIGURE_COLUMNS = { figure: 'text', value: 'number' } as const;
/** In the order of the JSON's levels; every one a number. */
const LEVEL_COLUMNS = {
  level: 'number',
  prize: 'number',
  multiple: 'number',
  winners: 'number',
  probability: 'number',
  oneIn: 'number',
  rtpShare: 'number',
} as const satisfies Record<keyof ParSheetLevel, CsvCellKind>;
const RANGE_COLUMNS = {
  cards: 'number',
  p90Low: 'number',
  p90High: 'number',
  p99Low: 'number',
  p99High: 'number',
  method: 'text',
} as const;

/**
 * The sheet as three tables in one CSV (`toCsvTables`, text cells neutralised): the figures (one per
 * line, a null one empty), the levels, the ranges.
 */
export function parSheetCsv(sheet: ParSheetDocument): string {
  const { levels, ranges, ...figures } = sheet;
  return toCsvTables([
    { columns: FIGURE_COLUMNS, rows: Object.entries(figures).map(([figure, value]) => ({ figure, value })) },
    { columns: LEVEL_COLUMNS, rows: levels.map((level) => ({ ...level })) },
    {
      columns: RANGE_COLUMNS,
      rows: ranges.map(({ cards, p90, p99, method }) => ({
        cards,
        p90Low: p90[0],
        p90High: p90[1],
        p99Low: p99[0],
        p99High: p99[1],
        method,
      })),
    },
  ]);
}
