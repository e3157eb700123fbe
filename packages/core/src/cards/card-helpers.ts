import type { Ladder } from '../ladder/ladder-types.ts';
import { LEVEL_COUNT } from '../models.ts';
import { type Rng, randomInt } from '../random/rng.ts';
import type { Card, CardCell, CardModelInfo } from './card-types.ts';

/** A ticket level: 0 loses, 1..LEVEL_COUNT wins that level's prize. */
export function assertLevel(level: number): void {
  if (!Number.isInteger(level) || level < 0 || level > LEVEL_COUNT) {
    throw new RangeError(`card level must be an integer from 0 (loss) to ${LEVEL_COUNT}, got ${level}`);
  }
}

/**
 * Cards print prizes by level, so the ladder must have exactly LEVEL_COUNT levels numbered 1..8
 * with strictly increasing prizes: two equal prizes would make distinct levels look alike.
 */
export function assertLadder(ladder: Ladder): void {
  const levels = ladder?.levels;
  if (!Array.isArray(levels) || levels.length !== LEVEL_COUNT) {
    throw new RangeError(
      `ladder must have ${LEVEL_COUNT} levels, got ${Array.isArray(levels) ? levels.length : 'none'}`,
    );
  }
  let previous = 0;
  for (let i = 0; i < LEVEL_COUNT; i++) {
    const rung = levels[i];
    if (rung?.level !== i + 1) {
      throw new RangeError(`ladder level at index ${i} must be numbered ${i + 1}, got ${rung?.level}`);
    }
    if (!Number.isSafeInteger(rung.prize) || rung.prize <= previous) {
      throw new RangeError(
        `ladder prizes must be positive integers strictly increasing with level; level ${i + 1} has ${rung.prize}`,
      );
    }
    previous = rung.prize;
  }
}

/** A random prize level 1..8, for amounts printed beside losing symbols. */
export function randomPrizeLevel(rng: Rng): number {
  return 1 + randomInt(rng, LEVEL_COUNT);
}

/** Tokens 0..LEVEL_COUNT-1 (token = level - 1), optionally without one. */
export function tokensExcept(excluded = -1): number[] {
  const out: number[] = [];
  for (let t = 0; t < LEVEL_COUNT; t++) if (t !== excluded) out.push(t);
  return out;
}

/**
 * `count` tokens drawn without replacement from a bag holding `copies` of each token,
 * so no token comes out more than `copies` times. Partial Fisher–Yates: cheap and varied.
 */
export function drawFromBag(rng: Rng, tokens: readonly number[], copies: number, count: number): number[] {
  const bag: number[] = [];
  for (const t of tokens) for (let k = 0; k < copies; k++) bag.push(t);
  if (count > bag.length) {
    throw new RangeError(`cannot draw ${count} tokens from a bag of ${bag.length}`);
  }
  for (let i = 0; i < count; i++) {
    const j = i + randomInt(rng, bag.length - i);
    const a = bag[i] as number;
    bag[i] = bag[j] as number;
    bag[j] = a;
  }
  bag.length = count;
  return bag;
}

/** Indexes of `items` where `test` holds, ascending. */
export function indexesWhere<T>(items: readonly T[], test: (item: T, index: number) => boolean): number[] {
  const out: number[] = [];
  items.forEach((item, i) => {
    if (test(item, i)) out.push(i);
  });
  return out;
}

export function malformed(info: CardModelInfo, why: string): RangeError {
  return new RangeError(`malformed ${info.model} card: ${why}`);
}

/**
 * A checker for stored cards (they come back from SQLite or the wire): shape, symbols,
 * printed prizes and numbers, per the model's metadata. Decoders run it before reading.
 */
export function cardChecker(info: CardModelInfo): (card: Card) => void {
  const gridSymbols = new Set(info.symbols.map((s) => s.id));
  const extraSymbols = new Set(info.extraSymbols.map((s) => s.id));
  // Messages are built only on failure: decoding runs for every card served.
  const checkSpot = (
    cell: CardCell,
    where: string,
    i: number,
    symbols: Set<string>,
    showsPrize: boolean,
  ): void => {
    if (typeof cell !== 'object' || cell === null || !symbols.has(cell.symbol)) {
      throw malformed(info, `${where} ${i} has an unknown symbol ${JSON.stringify(cell?.symbol)}`);
    }
    const p = cell.prizeLevel;
    if (
      showsPrize
        ? !(Number.isInteger(p) && (p as number) >= 1 && (p as number) <= LEVEL_COUNT)
        : p !== undefined
    ) {
      throw malformed(info, `${where} ${i} has prizeLevel ${p}`);
    }
    const n = cell.number;
    const range = info.numbers;
    if (
      range
        ? !(Number.isInteger(n) && (n as number) >= range.min && (n as number) <= range.max)
        : n !== undefined
    ) {
      throw malformed(info, `${where} ${i} has number ${n}`);
    }
  };
  return (card) => {
    if (typeof card !== 'object' || card === null) throw malformed(info, 'not an object');
    if (card.model !== info.model) throw malformed(info, `model is ${JSON.stringify(card.model)}`);
    if (card.rule !== info.rule) throw malformed(info, `rule is ${JSON.stringify(card.rule)}`);
    if (card.rows !== info.rows || card.cols !== info.cols) {
      throw malformed(info, `grid is ${card.rows}×${card.cols}, expected ${info.rows}×${info.cols}`);
    }
    if (!Array.isArray(card.cells) || card.cells.length !== info.rows * info.cols) {
      throw malformed(info, `expected ${info.rows * info.cols} cells`);
    }
    if (!Array.isArray(card.extras) || card.extras.length !== info.extrasCount) {
      throw malformed(info, `expected ${info.extrasCount} extras`);
    }
    for (let i = 0; i < card.cells.length; i++) {
      checkSpot(card.cells[i] as CardCell, 'cell', i, gridSymbols, info.cellsShowPrize);
    }
    for (let i = 0; i < card.extras.length; i++) {
      checkSpot(card.extras[i] as CardCell, 'extra', i, extraSymbols, info.extrasShowPrize);
    }
  };
}

/** Where the single winning spot goes among `count` spots, or -1 on a loss. */
export function winnerIndex(rng: Rng, count: number, level: number): number {
  return level === 0 ? -1 : randomInt(rng, count);
}

/**
 * Reading for the "a marked spot wins the prize printed on it" models: no marked cell loses,
 * one wins its printed prize, more than one would be ambiguous and is never laid out.
 */
export function readMarkedPrize(
  cells: readonly CardCell[],
  marked: readonly number[],
  info: CardModelInfo,
): { level: number; winningCells: number[] } {
  if (marked.length > 1) throw malformed(info, `${marked.length} winning spots`);
  const index = marked[0];
  if (index === undefined) return { level: 0, winningCells: [] };
  return { level: cells[index]?.prizeLevel as number, winningCells: [index] };
}
