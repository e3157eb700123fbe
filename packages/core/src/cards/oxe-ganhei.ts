import type { Rng } from '../random/rng.ts';
import { assertLevel, cardChecker } from './card-helpers.ts';
import type { Card, CardModelInfo, CardReading, OxeGanheiCard } from './card-types.ts';
import { layoutMatchThree, readMatchThree } from './match-three.ts';

export const OXE_GANHEI_INFO: CardModelInfo = {
  model: 'oxe-ganhei',
  title: 'Oxe, Ganhei!',
  rule: 'match-three',
  rows: 3,
  cols: 3,
  extrasCount: 0,
  cellsShowPrize: true,
  extrasShowPrize: false,
  ruleText: {
    pt: 'Encontre três valores iguais e ganhe esse valor.',
    en: 'Find three equal amounts and win that amount.',
    es: 'Encuentra tres importes iguales y gana ese importe.',
  },
  // Every cell is a printed amount; the amount itself (prizeLevel) is what must match.
  symbols: [{ id: 'valor', name: { pt: 'Valor', en: 'Amount', es: 'Importe' }, emoji: '💰' }],
  extraSymbols: [],
};

const check = cardChecker(OXE_GANHEI_INFO);

export function layoutOxeGanhei(level: number, rng: Rng): OxeGanheiCard {
  assertLevel(level);
  const { cells, winningCells } = layoutMatchThree(rng, 9, level, (t) => ({
    symbol: 'valor',
    prizeLevel: t + 1,
  }));
  return {
    model: 'oxe-ganhei',
    rule: 'match-three',
    rows: 3,
    cols: 3,
    cells,
    extras: [],
    winningCells,
    winningExtras: [],
  };
}

export function readOxeGanhei(card: Card): CardReading {
  check(card);
  const grid = readMatchThree(card.cells, (cell) => (cell.prizeLevel as number) - 1, OXE_GANHEI_INFO);
  return { ...grid, winningExtras: [] };
}
