export { exactRatio } from './exact-ratio.ts';
export { PAR_SHEET_CARDS, type ParSheet, type ParSheetLevel, parSheet } from './par-sheet.ts';
export { type ParSheetDocument, parSheetCsv, parSheetDocument } from './par-sheet-document.ts';
export type { ParSheetPool } from './pool-moments.ts';
export {
  RANGE_METHOD,
  RANGE_METHODS,
  type ReturnRange,
  SIMULATED_METHOD,
  Z_90,
  Z_99,
} from './return-range.ts';
export { SIMULATED_PLAYERS, SIMULATION_SEED, simulatedReturnRange } from './simulated-range.ts';
