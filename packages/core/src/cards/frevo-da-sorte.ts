import type { Rng } from '../random/rng.ts';
import { assertLevel, cardChecker } from './card-helpers.ts';
import type { Card, CardModelInfo, CardReading, FrevoDaSorteCard } from './card-types.ts';
import { layoutMatchThree, readMatchThree, tokenBySymbol } from './match-three.ts';

/** Umbrella colours, cheapest first; golden is the jackpot. */
const COLOURS = [
  { id: 'verde', name: { pt: 'Verde', en: 'Green', es: 'Verde' }, color: '#1e9e4a' },
  { id: 'azul', name: { pt: 'Azul', en: 'Blue', es: 'Azul' }, color: '#1f5fd1' },
  { id: 'amarelo', name: { pt: 'Amarelo', en: 'Yellow', es: 'Amarillo' }, color: '#f5c400' },
  { id: 'laranja', name: { pt: 'Laranja', en: 'Orange', es: 'Naranja' }, color: '#f07a10' },
  { id: 'vermelho', name: { pt: 'Vermelho', en: 'Red', es: 'Rojo' }, color: '#d8242b' },
  { id: 'rosa', name: { pt: 'Rosa', en: 'Pink', es: 'Rosa' }, color: '#e8559a' },
  { id: 'roxo', name: { pt: 'Roxo', en: 'Purple', es: 'Morado' }, color: '#7a3cc2' },
  { id: 'dourado', name: { pt: 'Dourado', en: 'Golden', es: 'Dorado' }, color: '#c9a227' },
] as const;

export const FREVO_DA_SORTE_INFO: CardModelInfo = {
  model: 'frevo-da-sorte',
  title: 'Frevo da Sorte',
  rule: 'match-three',
  rows: 3,
  cols: 4,
  extrasCount: 0,
  cellsShowPrize: false,
  extrasShowPrize: false,
  ruleText: {
    pt: 'Encontre três sombrinhas da mesma cor e ganhe o prêmio dessa cor.',
    en: "Find three umbrellas of the same colour and win that colour's prize.",
    es: 'Encuentra tres sombrillas del mismo color y gana el premio de ese color.',
  },
  symbols: COLOURS.map((c, i) => ({ ...c, emoji: '☂️', level: i + 1 })),
  extraSymbols: [],
};

const check = cardChecker(FREVO_DA_SORTE_INFO);
const tokenOf = tokenBySymbol(FREVO_DA_SORTE_INFO.symbols);

export function layoutFrevoDaSorte(level: number, rng: Rng): FrevoDaSorteCard {
  assertLevel(level);
  const { cells, winningCells } = layoutMatchThree(rng, 12, level, (t) => ({
    symbol: COLOURS[t]?.id as string,
  }));
  return {
    model: 'frevo-da-sorte',
    rule: 'match-three',
    rows: 3,
    cols: 4,
    cells,
    extras: [],
    winningCells,
    winningExtras: [],
  };
}

export function readFrevoDaSorte(card: Card): CardReading {
  check(card);
  return { ...readMatchThree(card.cells, tokenOf, FREVO_DA_SORTE_INFO), winningExtras: [] };
}
