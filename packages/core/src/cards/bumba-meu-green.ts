import { pick, type Rng } from '../random/rng.ts';
import {
  assertLevel,
  cardChecker,
  indexesWhere,
  randomPrizeLevel,
  readMarkedPrize,
  winnerIndex,
} from './card-helpers.ts';
import type { BumbaMeuGreenCard, Card, CardModelInfo, CardReading } from './card-types.ts';

const ROWS = 2;
const COLS = 3;
const BOI = 'boi';
/** The rest of the bumba-meu-boi cast: they fill the card and never win. */
const CAST = ['catirina', 'pai-francisco', 'cazumba', 'caboclo-de-pena', 'burrinha'] as const;

export const BUMBA_MEU_GREEN_INFO: CardModelInfo = {
  model: 'bumba-meu-green',
  title: 'Bumba Meu Green',
  rule: 'find-the-symbol',
  rows: ROWS,
  cols: COLS,
  extrasCount: 0,
  cellsShowPrize: true,
  extrasShowPrize: false,
  ruleText: {
    pt: 'Encontre o boi e ganhe o prêmio ao lado dele.',
    en: 'Find the boi (the ox) and win the prize beside it.',
    es: 'Encuentra el buey y gana el premio a su lado.',
  },
  symbols: [
    { id: BOI, name: { pt: 'Boi', en: 'Ox', es: 'Buey' }, emoji: '🐂', wins: true },
    { id: 'catirina', name: { pt: 'Catirina', en: 'Catirina', es: 'Catirina' }, emoji: '💃' },
    {
      id: 'pai-francisco',
      name: { pt: 'Pai Francisco', en: 'Pai Francisco', es: 'Pai Francisco' },
      emoji: '🤠',
    },
    { id: 'cazumba', name: { pt: 'Cazumbá', en: 'Cazumbá', es: 'Cazumbá' }, emoji: '🎭' },
    {
      id: 'caboclo-de-pena',
      name: { pt: 'Caboclo de pena', en: 'Feathered caboclo', es: 'Caboclo de plumas' },
      emoji: '🪶',
    },
    { id: 'burrinha', name: { pt: 'Burrinha', en: 'Little donkey', es: 'Burrita' }, emoji: '🫏' },
  ],
  extraSymbols: [],
};

const check = cardChecker(BUMBA_MEU_GREEN_INFO);

export function layoutBumbaMeuGreen(level: number, rng: Rng): BumbaMeuGreenCard {
  assertLevel(level);
  const win = winnerIndex(rng, ROWS * COLS, level);
  const cells = Array.from({ length: ROWS * COLS }, (_, i) =>
    i === win
      ? { symbol: BOI, prizeLevel: level }
      : // Any prize, even the jackpot, beside a non-winning character: that is the near miss.
        { symbol: pick(rng, CAST), prizeLevel: randomPrizeLevel(rng) },
  );
  return {
    model: 'bumba-meu-green',
    rule: 'find-the-symbol',
    rows: ROWS,
    cols: COLS,
    cells,
    extras: [],
    winningCells: win < 0 ? [] : [win],
    winningExtras: [],
  };
}

export function readBumbaMeuGreen(card: Card): CardReading {
  check(card);
  const marked = indexesWhere(card.cells, (c) => c.symbol === BOI);
  return { ...readMarkedPrize(card.cells, marked, BUMBA_MEU_GREEN_INFO), winningExtras: [] };
}
