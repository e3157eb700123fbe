import { LEVEL_COUNT } from '../models.ts';
import { pick, type Rng, randomInt } from '../random/rng.ts';
import { assertLevel, cardChecker, indexesWhere, malformed } from './card-helpers.ts';
import type { Card, CardModelInfo, CardReading, TremDeOuroV1Card } from './card-types.ts';
import { CARGOES, GOLDEN_LOCOMOTIVE } from './cargo.ts';
import { tokenBySymbol } from './match-three.ts';

const ROWS = 3;
const COLS = 3;

export const TREM_DE_OURO_V1_INFO: CardModelInfo = {
  model: 'trem-de-ouro-v1',
  title: 'Trem de Ouro: Vagões',
  rule: 'row-of-three',
  rows: ROWS,
  cols: COLS,
  extrasCount: 0,
  cellsShowPrize: false,
  extrasShowPrize: false,
  ruleText: {
    pt: 'Complete um vagão com três cargas iguais e ganhe o prêmio dessa carga.',
    en: "Fill one wagon with three equal cargoes and win that cargo's prize.",
    es: 'Completa un vagón con tres cargas iguales y gana el premio de esa carga.',
  },
  // Each wagon is a row; each cargo stands for a level, the golden locomotive for the jackpot.
  symbols: [...CARGOES, GOLDEN_LOCOMOTIVE].map((s, i) => ({ ...s, level: i + 1 })),
  extraSymbols: [],
};

const check = cardChecker(TREM_DE_OURO_V1_INFO);
const tokenOf = tokenBySymbol(TREM_DE_OURO_V1_INFO.symbols);
const ROW_INDEXES = Array.from({ length: ROWS }, (_, r) => r);
const SYMBOL_IDS = TREM_DE_OURO_V1_INFO.symbols.map((s) => s.id);

export function layoutTremDeOuroV1(level: number, rng: Rng): TremDeOuroV1Card {
  assertLevel(level);
  const winRow = level === 0 ? -1 : randomInt(rng, ROWS);
  const t: number[] = [];
  for (let r = 0; r < ROWS; r++) {
    if (r === winRow) {
      t.push(level - 1, level - 1, level - 1);
      continue;
    }
    const a = randomInt(rng, LEVEL_COUNT);
    const b = randomInt(rng, LEVEL_COUNT);
    let c = randomInt(rng, LEVEL_COUNT);
    // Two equal cargoes in a wagon are a near miss; a third would be a win.
    if (a === b && c === a) c = (c + 1 + randomInt(rng, LEVEL_COUNT - 1)) % LEVEL_COUNT;
    t.push(a, b, c);
  }
  // The rule reads wagons only, but a full column would look like a win to a player: break any
  // by changing that column's cell in a losing row, without completing that row.
  const fixRow = winRow === ROWS - 1 ? ROWS - 2 : ROWS - 1;
  for (let c = 0; c < COLS; c++) {
    const top = t[c] as number;
    if (t[COLS + c] !== top || t[2 * COLS + c] !== top) continue;
    const rowStart = fixRow * COLS;
    const others = t.slice(rowStart, rowStart + COLS).filter((_, k) => k !== c);
    const pair = others[0] === others[1] ? others[0] : -1;
    const choices = indexesWhere(SYMBOL_IDS, (_, k) => k !== top && k !== pair);
    t[rowStart + c] = pick(rng, choices);
  }
  const cells = t.map((k) => ({ symbol: SYMBOL_IDS[k] as string }));
  const winningCells = winRow < 0 ? [] : [winRow * COLS, winRow * COLS + 1, winRow * COLS + 2];
  return {
    model: 'trem-de-ouro-v1',
    rule: 'row-of-three',
    rows: ROWS,
    cols: COLS,
    cells,
    extras: [],
    winningCells,
    winningExtras: [],
  };
}

export function readTremDeOuroV1(card: Card): CardReading {
  check(card);
  const t = card.cells.map(tokenOf);
  const fullRows = ROW_INDEXES.filter(
    (r) => t[r * COLS] === t[r * COLS + 1] && t[r * COLS] === t[r * COLS + 2],
  );
  if (fullRows.length > 1) throw malformed(TREM_DE_OURO_V1_INFO, 'more than one full wagon');
  const row = fullRows[0];
  if (row === undefined) return { level: 0, winningCells: [], winningExtras: [] };
  return {
    level: (t[row * COLS] as number) + 1,
    winningCells: [row * COLS, row * COLS + 1, row * COLS + 2],
    winningExtras: [],
  };
}
