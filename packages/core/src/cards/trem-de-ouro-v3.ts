import { type Rng, randomInt } from '../random/rng.ts';
import {
  assertLevel,
  cardChecker,
  drawFromBag,
  indexesWhere,
  malformed,
  randomPrizeLevel,
  readMarkedPrize,
  winnerIndex,
} from './card-helpers.ts';
import type { Card, CardModelInfo, CardReading, TremDeOuroV3Card } from './card-types.ts';

const ROWS = 2;
const COLS = 4;
const TICKETS = ROWS * COLS;
const WINNING_NUMBERS = 2;
const FIRST_STATION = 1;
const LAST_STATION = 40;
const STATIONS = Array.from({ length: LAST_STATION - FIRST_STATION + 1 }, (_, i) => FIRST_STATION + i);

export const TREM_DE_OURO_V3_INFO: CardModelInfo = {
  model: 'trem-de-ouro-v3',
  title: 'Trem de Ouro: Estações',
  rule: 'winning-numbers',
  rows: ROWS,
  cols: COLS,
  extrasCount: WINNING_NUMBERS,
  cellsShowPrize: true,
  extrasShowPrize: false,
  ruleText: {
    pt: 'Se um dos seus bilhetes tiver o número de uma estação premiada, ganhe o prêmio desse bilhete.',
    en: "If one of your tickets shows a winning station number, win that ticket's prize.",
    es: 'Si uno de tus billetes tiene el número de una estación ganadora, gana el premio de ese billete.',
  },
  symbols: [{ id: 'bilhete', name: { pt: 'Bilhete', en: 'Ticket', es: 'Billete' }, emoji: '🎫' }],
  extraSymbols: [
    {
      id: 'estacao-premiada',
      name: { pt: 'Estação premiada', en: 'Winning station', es: 'Estación ganadora' },
      emoji: '🚉',
    },
  ],
  numbers: { min: FIRST_STATION, max: LAST_STATION },
};

const check = cardChecker(TREM_DE_OURO_V3_INFO);

export function layoutTremDeOuroV3(level: number, rng: Rng): TremDeOuroV3Card {
  assertLevel(level);
  // All ten numbers distinct, so only the ticket we choose can match a winning number.
  const numbers = drawFromBag(rng, STATIONS, 1, WINNING_NUMBERS + TICKETS);
  const winning = numbers.slice(0, WINNING_NUMBERS);
  const win = winnerIndex(rng, TICKETS, level);
  const matched = win < 0 ? -1 : randomInt(rng, WINNING_NUMBERS);
  const cells = numbers
    .slice(WINNING_NUMBERS)
    .map((n, i) =>
      i === win
        ? { symbol: 'bilhete', number: winning[matched] as number, prizeLevel: level }
        : { symbol: 'bilhete', number: n, prizeLevel: randomPrizeLevel(rng) },
    );
  return {
    model: 'trem-de-ouro-v3',
    rule: 'winning-numbers',
    rows: ROWS,
    cols: COLS,
    cells,
    extras: winning.map((n) => ({ symbol: 'estacao-premiada', number: n })),
    winningCells: win < 0 ? [] : [win],
    winningExtras: win < 0 ? [] : [matched],
  };
}

export function readTremDeOuroV3(card: Card): CardReading {
  check(card);
  const winning = card.extras.map((e) => e.number);
  if (new Set(winning).size !== winning.length)
    throw malformed(TREM_DE_OURO_V3_INFO, 'repeated winning number');
  const grid = readMarkedPrize(
    card.cells,
    indexesWhere(card.cells, (c) => winning.includes(c.number)),
    TREM_DE_OURO_V3_INFO,
  );
  const ticket = grid.winningCells[0];
  const winningExtras = ticket === undefined ? [] : [winning.indexOf(card.cells[ticket]?.number)];
  return { ...grid, winningExtras };
}
