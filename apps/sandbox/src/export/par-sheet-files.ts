import { type Ladder, parSheetCsv, parSheetDocument } from '@raspa/core';

/** One file to hand to the browser's downloads. */
export interface ExportFile {
  name: string;
  text: string;
  type: string;
}

/**
 * A model's PAR sheet as files (docs/sandbox.md): the JSON as the certification pack's
 * par-sheet.json holds it and the CSV as `GET /v1/game/{id}/par-sheet` answers it, computed by the
 * same core code, with `gameId` and `version` null (empty in the CSV): the model is not a version yet.
 */
export function parSheetFiles(ladder: Ladder): { json: ExportFile; csv: ExportFile } {
  const sheet = parSheetDocument(ladder, { gameId: null, version: null });
  const name = `par-sheet-${ladder.gameModel}`;
  return {
    json: { name: `${name}.json`, text: `${JSON.stringify(sheet, null, 2)}\n`, type: 'application/json' },
    csv: { name: `${name}.csv`, text: parSheetCsv(sheet), type: 'text/csv;charset=utf-8' },
  };
}
