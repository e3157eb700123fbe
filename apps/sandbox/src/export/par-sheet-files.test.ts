import { buildLadder, parSheetDocument } from '@raspa/core';
import { describe, expect, it } from 'vitest';
import { parSheetFiles } from './par-sheet-files.ts';

const built = buildLadder({
  gameModel: 'fera-sortuda',
  currency: 'BRL',
  rtp: 0.9,
  sampling: 1_000_000,
  prizedPercent: 0.3,
  betPrice: 2,
});
if (!built.ok) throw new Error(JSON.stringify(built.problems));
const { ladder } = built;

describe('parSheetFiles', () => {
  it('writes the core’s sheet with no gameId or version, as JSON and as the service’s CSV', () => {
    const { json, csv } = parSheetFiles(ladder);
    expect(json.name).toBe('par-sheet-fera-sortuda.json');
    expect(JSON.parse(json.text)).toEqual(parSheetDocument(ladder, { gameId: null, version: null }));
    expect(csv.name).toBe('par-sheet-fera-sortuda.csv');
    expect(csv.text.split('\r\n').slice(0, 4)).toEqual([
      'figure,value',
      'gameId,',
      'version,',
      'gameModel,fera-sortuda',
    ]);
  });
});
