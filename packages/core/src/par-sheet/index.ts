export { exactRatio } from './exact-ratio.ts';
export { PAR_SHEET_CARDS, type ParSheet, type ParSheetLevel, parSheet } from './par-sheet.ts';
export type { ParSheetPool } from './pool-moments.ts';
export { RANGE_METHOD, type ReturnRange, Z_90, Z_99 } from './return-range.ts';
