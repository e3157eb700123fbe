import { describe, expect, it } from 'vitest';
import { buildLadder } from '../ladder/build-ladder.ts';
import { toMajor } from '../money/money.ts';
import { parSheet } from './par-sheet.ts';
import { parSheetCsv, parSheetDocument } from './par-sheet-document.ts';

const built = buildLadder({
  gameModel: 'frevo-da-sorte',
  currency: 'KWD',
  rtp: 0.9,
  sampling: 100_001,
  prizedPercent: 0.5,
  betPrice: 0.25,
});
if (!built.ok) throw new Error(JSON.stringify(built.problems));
const { ladder } = built;

describe('parSheetDocument', () => {
  it('is the core’s sheet with its money in the currency’s major units, after the version’s identity', () => {
    const sheet = parSheet(ladder);
    const document = parSheetDocument(ladder, { gameId: 'g1', version: 3 });
    expect(Object.keys(document)).toEqual([
      'gameId',
      'version',
      'gameModel',
      'betPrice',
      'sampling',
      'rtp',
      'hitFrequency',
      'stdDev',
      'maxWinMultiple',
      'levels',
      'ranges',
    ]);
    expect(document).toMatchObject({ gameId: 'g1', version: 3, gameModel: 'frevo-da-sorte', betPrice: 0.25 });
    expect(document.levels.map((level) => level.prize)).toEqual(
      sheet.levels.map((level) => toMajor(level.prize, 'KWD')),
    );
    expect(document.ranges).toEqual(sheet.ranges);
  });
});

describe('parSheetCsv', () => {
  it('writes three tables, a null figure empty and a text that starts like a formula neutralised', () => {
    const csv = parSheetCsv(parSheetDocument(ladder, { gameId: '=1+1', version: null }));
    const [figures = '', levels = '', ranges = ''] = csv.split('\r\n\r\n');
    expect(figures.split('\r\n').slice(0, 4)).toEqual([
      'figure,value',
      `gameId,"'=1+1"`,
      'version,',
      'gameModel,frevo-da-sorte',
    ]);
    expect(levels.split('\r\n')[0]).toBe('level,prize,multiple,winners,probability,oneIn,rtpShare');
    expect(levels.split('\r\n')).toHaveLength(9);
    expect(ranges.split('\r\n')[0]).toBe('cards,p90Low,p90High,p99Low,p99High,method');
    expect(ranges.endsWith('\r\n')).toBe(true);
  });
});
