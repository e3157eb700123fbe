import { type Rng, randomInt } from '../random/rng.ts';
import {
  assertLevel,
  cardChecker,
  indexesWhere,
  randomPrizeLevel,
  readMarkedPrize,
  winnerIndex,
} from './card-helpers.ts';
import type { Card, CardCell, CardModelInfo, CardReading, TremDeOuroV2Card } from './card-types.ts';
import { CARGOES } from './cargo.ts';

const WAGONS = 5;

export const TREM_DE_OURO_V2_INFO: CardModelInfo = {
  model: 'trem-de-ouro-v2',
  title: 'Trem de Ouro: Locomotiva',
  rule: 'match-the-locomotive',
  rows: 1,
  cols: WAGONS,
  extrasCount: 1,
  cellsShowPrize: true,
  extrasShowPrize: false,
  ruleText: {
    pt: 'Se um vagão levar a mesma carga da locomotiva, ganhe o prêmio desse vagão.',
    en: "If a wagon carries the same cargo as the locomotive, win that wagon's prize.",
    es: 'Si un vagón lleva la misma carga que la locomotora, gana el premio de ese vagón.',
  },
  // Here cargo is worth nothing by itself: the prize is the amount printed on each wagon.
  symbols: CARGOES,
  extraSymbols: CARGOES,
};

const check = cardChecker(TREM_DE_OURO_V2_INFO);
const cargoId = (k: number): string => CARGOES[k]?.id as string;

export function layoutTremDeOuroV2(level: number, rng: Rng): TremDeOuroV2Card {
  assertLevel(level);
  const key = randomInt(rng, CARGOES.length);
  const win = winnerIndex(rng, WAGONS, level);
  const cells: CardCell[] = [];
  for (let i = 0; i < WAGONS; i++) {
    if (i === win) {
      cells.push({ symbol: cargoId(key), prizeLevel: level });
    } else {
      // Any other cargo, with any amount: a jackpot on a wrong cargo is the near miss.
      const other = (key + 1 + randomInt(rng, CARGOES.length - 1)) % CARGOES.length;
      cells.push({ symbol: cargoId(other), prizeLevel: randomPrizeLevel(rng) });
    }
  }
  return {
    model: 'trem-de-ouro-v2',
    rule: 'match-the-locomotive',
    rows: 1,
    cols: WAGONS,
    cells,
    extras: [{ symbol: cargoId(key) }],
    winningCells: win < 0 ? [] : [win],
    winningExtras: win < 0 ? [] : [0],
  };
}

export function readTremDeOuroV2(card: Card): CardReading {
  check(card);
  const key = card.extras[0]?.symbol;
  const grid = readMarkedPrize(
    card.cells,
    indexesWhere(card.cells, (c) => c.symbol === key),
    TREM_DE_OURO_V2_INFO,
  );
  return { ...grid, winningExtras: grid.level === 0 ? [] : [0] };
}
