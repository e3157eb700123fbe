import { LEVEL_COUNT } from '../models.ts';
import { type Rng, shuffle } from '../random/rng.ts';
import { drawFromBag, indexesWhere, malformed, tokensExcept } from './card-helpers.ts';
import type { CardCell, CardModelInfo } from './card-types.ts';

/*
 * The "three of a kind anywhere in the grid" mechanic shared by oxe-ganhei, frevo-da-sorte and
 * fera-sortuda. It works on tokens (token = level - 1); each model maps tokens to what it shows
 * (an amount, an umbrella colour, an animal).
 */

/**
 * A grid of `size` cells. A win shows the level's token exactly three times and every other token at
 * most twice (pairs are the near misses); a loss shows every token at most twice.
 */
export function layoutMatchThree(
  rng: Rng,
  size: number,
  level: number,
  cellOf: (token: number) => CardCell,
): { cells: CardCell[]; winningCells: number[] } {
  let tokens: number[];
  if (level === 0) {
    tokens = drawFromBag(rng, tokensExcept(), 2, size);
  } else {
    const winner = level - 1;
    tokens = drawFromBag(rng, tokensExcept(winner), 2, size - 3);
    tokens.push(winner, winner, winner);
    tokens = shuffle(rng, tokens);
  }
  return {
    cells: tokens.map(cellOf),
    winningCells: level === 0 ? [] : indexesWhere(tokens, (t) => t === level - 1),
  };
}

/** Reads a grid by the rule alone: a token shown three (or more) times wins its level. */
export function readMatchThree(
  cells: readonly CardCell[],
  tokenOf: (cell: CardCell) => number,
  info: CardModelInfo,
): { level: number; winningCells: number[] } {
  const tokens = cells.map(tokenOf);
  const counts = new Array<number>(LEVEL_COUNT).fill(0);
  for (const t of tokens) counts[t] = (counts[t] ?? 0) + 1;
  const winners = indexesWhere(counts, (c) => c >= 3);
  if (winners.length > 1) throw malformed(info, 'more than one symbol appears three times');
  const winner = winners[0];
  if (winner === undefined) return { level: 0, winningCells: [] };
  return { level: winner + 1, winningCells: indexesWhere(tokens, (t) => t === winner) };
}

/** Token lookup for models whose symbols each stand for a level (colours, animals). */
export function tokenBySymbol(symbols: CardModelInfo['symbols']): (cell: CardCell) => number {
  const tokens = new Map<string, number>();
  for (const s of symbols) if (s.level !== undefined) tokens.set(s.id, s.level - 1);
  return (cell) => {
    const token = tokens.get(cell.symbol);
    if (token === undefined) throw new RangeError(`symbol ${cell.symbol} stands for no level`);
    return token;
  };
}
