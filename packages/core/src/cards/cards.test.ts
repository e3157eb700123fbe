import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Ladder } from '../ladder/ladder-types.ts';
import { GAME_MODELS, type GameModel } from '../models.ts';
import { type Rng, randomInt, seededRng } from '../random/rng.ts';
import { CARD_MODELS, type Card, type CardCell, decodeCard, layoutCard, readCard } from './index.ts';

/** A hand-made BRL ladder for a R$ 5,00 ticket: prizes in centavos, increasing with level. */
const PRIZES = [500, 1_000, 2_000, 5_000, 10_000, 50_000, 100_000, 1_000_000];
const WINNERS = [60_000, 20_000, 6_000, 1_500, 600, 60, 20, 1];
const LADDER: Ladder = {
  gameModel: 'oxe-ganhei',
  currency: 'BRL',
  rtpPpm: 650_000,
  prizedPpm: 250_000,
  sampling: 1_000_000,
  betPrice: 500,
  totalAmount: 500_000_000,
  totalDistribuitionAmount: 325_000_000,
  totalPrized: WINNERS.reduce((a, b) => a + b, 0),
  totalLevels: 8,
  levels: PRIZES.map((prize, i) => ({
    level: i + 1,
    winners: WINNERS[i] as number,
    prize,
    totalPrize: prize * (WINNERS[i] as number),
    percentage: (prize * (WINNERS[i] as number)) / 325_000_000,
  })),
  maxBetPrize: 1_000_000,
};

interface Pattern {
  level: number;
  cells: number[];
  extras: number[];
}

/** Level of a symbol that stands for a prize, from the metadata. */
function symbolLevel(model: GameModel, id: string): number {
  const level = CARD_MODELS[model].symbols.find((s) => s.id === id)?.level;
  if (level === undefined) throw new Error(`${id} has no level`);
  return level;
}

/** Every "same thing at least three times" group, naively. */
function triples(cells: readonly CardCell[], key: (c: CardCell) => number): Pattern[] {
  const out: Pattern[] = [];
  for (let level = 1; level <= 8; level++) {
    const hits: number[] = [];
    cells.forEach((c, i) => {
      if (key(c) === level) hits.push(i);
    });
    if (hits.length >= 3) out.push({ level, cells: hits, extras: [] });
  }
  return out;
}

/**
 * Test oracle: every winning pattern a player would see, written independently of the decoders
 * (straight from the rule sentences), so the property tests are not circular.
 */
function visiblePatterns(card: Card): Pattern[] {
  const c = card.cells;
  switch (card.model) {
    case 'oxe-ganhei':
      return triples(c, (x) => x.prizeLevel ?? -1);
    case 'frevo-da-sorte':
      return triples(c, (x) => symbolLevel(card.model, x.symbol));
    case 'fera-sortuda': {
      const out = triples(c, (x) => symbolLevel(card.model, x.symbol));
      const bonus = card.extras[0];
      if (bonus?.symbol === 'onca') out.push({ level: bonus.prizeLevel ?? -1, cells: [], extras: [0] });
      return out;
    }
    case 'trem-de-ouro-v1': {
      const out: Pattern[] = [];
      for (let r = 0; r < 3; r++) {
        const [a, b, d] = [c[3 * r], c[3 * r + 1], c[3 * r + 2]];
        if (a?.symbol === b?.symbol && b?.symbol === d?.symbol) {
          out.push({
            level: symbolLevel(card.model, a?.symbol ?? ''),
            cells: [3 * r, 3 * r + 1, 3 * r + 2],
            extras: [],
          });
        }
      }
      return out;
    }
    case 'trem-de-ouro-v2':
      return c.flatMap((x, i) =>
        x.symbol === card.extras[0]?.symbol ? [{ level: x.prizeLevel ?? -1, cells: [i], extras: [0] }] : [],
      );
    case 'trem-de-ouro-v3':
      return c.flatMap((x, i) =>
        card.extras.flatMap((e, j) =>
          e.number === x.number ? [{ level: x.prizeLevel ?? -1, cells: [i], extras: [j] }] : [],
        ),
      );
    case 'bumba-meu-green':
      return c.flatMap((x, i) =>
        x.symbol === 'boi' ? [{ level: x.prizeLevel ?? -1, cells: [i], extras: [] }] : [],
      );
  }
}

/** Everything that must hold for one card laid out at `level`; returns a problem or undefined. */
function problemWith(card: Card, level: number): string | undefined {
  const info = CARD_MODELS[card.model];
  if (card.rows !== info.rows || card.cols !== info.cols || card.cells.length !== info.rows * info.cols) {
    return 'grid does not match metadata';
  }
  if (card.extras.length !== info.extrasCount) return 'extras do not match metadata';
  const reading = decodeCard(card, LADDER);
  if (reading.level !== level) return `decoded ${reading.level}`;
  if (String(reading.winningCells) !== String(card.winningCells)) return 'winningCells disagree';
  if (String(reading.winningExtras) !== String(card.winningExtras)) return 'winningExtras disagree';
  const patterns = visiblePatterns(card);
  if (patterns.length !== (level === 0 ? 0 : 1)) return `${patterns.length} visible patterns`;
  const p = patterns[0];
  if (
    p &&
    (p.level !== level ||
      String(p.cells) !== String(card.winningCells) ||
      String(p.extras) !== String(card.winningExtras))
  ) {
    return 'visible pattern disagrees';
  }
  if (level === 0 && (card.winningCells.length > 0 || card.winningExtras.length > 0))
    return 'losing card highlights';
  if (level > 0 && card.winningCells.length + card.winningExtras.length === 0)
    return 'winning card highlights nothing';
  return undefined;
}

/** Near misses a player would notice on a losing card: a pair, or a prize beside a non-winning symbol. */
function hasNearMiss(card: Card): boolean {
  const info = CARD_MODELS[card.model];
  if (info.cellsShowPrize || info.extrasShowPrize) return true;
  const seen = new Set<string>();
  return card.cells.some((c) => {
    const key = c.symbol + (c.prizeLevel ?? '');
    if (seen.has(key)) return true;
    seen.add(key);
    return false;
  });
}

const CARDS_PER_MODEL = 100_000;

describe.each(GAME_MODELS)('%s cards', (model) => {
  it(`${CARDS_PER_MODEL} random cards read back exactly their level`, () => {
    const levels = seededRng(0xca7d ^ model.length);
    const rng = seededRng(20_240_601);
    const info = CARD_MODELS[model];
    const gridSymbols = new Set(info.symbols.map((s) => s.id));
    const extraSymbols = new Set(info.extraSymbols.map((s) => s.id));
    const seenSymbols = new Set<string>();
    const wins = new Array<number>(9).fill(0);
    let nearMisses = 0;
    const problems: string[] = [];
    for (let n = 0; n < CARDS_PER_MODEL && problems.length < 5; n++) {
      const level = randomInt(levels, 9);
      const card = layoutCard(model, LADDER, level, rng);
      const problem = problemWith(card, level);
      if (problem) problems.push(`level ${level}: ${problem} in ${JSON.stringify(card)}`);
      for (const c of card.cells) {
        if (!gridSymbols.has(c.symbol)) problems.push(`unknown symbol ${c.symbol}`);
        seenSymbols.add(c.symbol);
      }
      for (const c of card.extras) {
        if (!extraSymbols.has(c.symbol)) problems.push(`unknown extra ${c.symbol}`);
        seenSymbols.add(c.symbol);
      }
      if (readCard(card, LADDER) > 0) wins[level] = (wins[level] ?? 0) + 1;
      else if (hasNearMiss(card)) nearMisses++;
      // Stored as JSON and read back: nothing may be lost.
      if (n % 50 === 0 && readCard(JSON.parse(JSON.stringify(card)), LADDER) !== level)
        problems.push('JSON round trip');
    }
    expect(problems).toEqual([]);
    // Every symbol of the metadata shows up somewhere, every level was won.
    expect([...seenSymbols].sort()).toEqual([...new Set([...gridSymbols, ...extraSymbols])].sort());
    expect(wins.slice(1).every((w) => w > 0)).toBe(true);
    // Losing cards tease: most of them show a near miss.
    expect(nearMisses).toBeGreaterThan((CARDS_PER_MODEL / 9) * 0.5);
  });

  it('fillers vary: cards of one level are rarely identical', () => {
    const rng = seededRng(7);
    for (const level of [0, 1, 8]) {
      const distinct = new Set<string>();
      for (let i = 0; i < 1_000; i++) distinct.add(JSON.stringify(layoutCard(model, LADDER, level, rng)));
      expect(distinct.size).toBeGreaterThan(900);
    }
  });

  it('is deterministic for a given rng state', () => {
    for (let level = 0; level <= 8; level++) {
      expect(layoutCard(model, LADDER, level, seededRng(level * 31))).toEqual(
        layoutCard(model, LADDER, level, seededRng(level * 31)),
      );
    }
  });
});

describe('card properties over arbitrary rngs (fast-check)', () => {
  const modelArb = fc.constantFrom(...GAME_MODELS);
  const levelArb = fc.integer({ min: 0, max: 8 });

  it('any seed: the card reads back its level, deterministically, through JSON', () => {
    fc.assert(
      fc.property(modelArb, levelArb, fc.integer(), (model, level, seed) => {
        const card = layoutCard(model, LADDER, level, seededRng(seed));
        expect(problemWith(card, level)).toBeUndefined();
        expect(layoutCard(model, LADDER, level, seededRng(seed))).toEqual(card);
        const stored: Card = JSON.parse(JSON.stringify(card));
        expect(stored).toEqual(card);
        expect(readCard(stored, LADDER)).toBe(level);
      }),
      { numRuns: 2_000 },
    );
  });

  it('even extreme or repetitive rngs (all zeros, close to 1, short cycles) give valid cards', () => {
    const draws = fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), {
      minLength: 1,
      maxLength: 8,
    });
    fc.assert(
      fc.property(modelArb, levelArb, draws, (model, level, values) => {
        let i = 0;
        const rng: Rng = () => values[i++ % values.length] as number;
        expect(problemWith(layoutCard(model, LADDER, level, rng), level)).toBeUndefined();
      }),
      { numRuns: 2_000 },
    );
    for (const model of GAME_MODELS) {
      for (const value of [0, 0.999_999_999]) {
        for (let level = 0; level <= 8; level++) {
          expect(
            problemWith(
              layoutCard(model, LADDER, level, () => value),
              level,
            ),
          ).toBeUndefined();
        }
      }
    }
  });
});

describe('card metadata', () => {
  it('describes every model, with distinct trem-de-ouro versions', () => {
    expect(Object.keys(CARD_MODELS).sort()).toEqual([...GAME_MODELS].sort());
    const trains = (['trem-de-ouro-v1', 'trem-de-ouro-v2', 'trem-de-ouro-v3'] as const).map(
      (m) => CARD_MODELS[m],
    );
    expect(new Set(trains.map((t) => `${t.rows}x${t.cols}`)).size).toBe(3);
    expect(new Set(trains.map((t) => t.rule)).size).toBe(3);
    expect(new Set(trains.map((t) => t.title)).size).toBe(3);
  });

  it.each(GAME_MODELS)('%s: grid, symbols and rule text match the cards', (model) => {
    const info = CARD_MODELS[model];
    expect(info.model).toBe(model);
    expect(info.title.length).toBeGreaterThan(0);
    for (const text of Object.values(info.ruleText)) expect(text).toMatch(/^\S.{10,}[.]$/);
    const all = [...info.symbols, ...info.extraSymbols];
    for (const s of all) {
      expect(s.id).toMatch(/^[a-z][a-z0-9-]*$/);
      expect(s.name.pt && s.name.en && s.name.es && s.emoji).toBeTruthy();
    }
    expect(new Set(info.symbols.map((s) => s.id)).size).toBe(info.symbols.length);
    expect(new Set(info.extraSymbols.map((s) => s.id)).size).toBe(info.extraSymbols.length);
    // Models whose symbols carry the prize have one symbol per level, 1..8.
    const levelled = info.symbols.filter((s) => s.level !== undefined).map((s) => s.level);
    if (levelled.length > 0) expect(levelled).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const card = layoutCard(model, LADDER, 5, seededRng(1));
    expect(card.rule).toBe(info.rule);
    expect([card.rows, card.cols, card.cells.length, card.extras.length]).toEqual([
      info.rows,
      info.cols,
      info.rows * info.cols,
      info.extrasCount,
    ]);
    expect(card.cells.every((c) => (c.prizeLevel !== undefined) === info.cellsShowPrize)).toBe(true);
    expect(card.extras.every((c) => (c.prizeLevel !== undefined) === info.extrasShowPrize)).toBe(true);
    // No level field: the level is only ever read from the symbols.
    expect(Object.keys(card).sort()).toEqual([
      'cells',
      'cols',
      'extras',
      'model',
      'rows',
      'rule',
      'winningCells',
      'winningExtras',
    ]);
  });
});

describe('card layout rules a player would notice', () => {
  it('trem-de-ouro-v1 never shows a full column (it would look like a win)', () => {
    const rng = seededRng(3);
    for (let i = 0; i < 20_000; i++) {
      const card = layoutCard('trem-de-ouro-v1', LADDER, i % 9, rng);
      for (let col = 0; col < 3; col++) {
        const [a, b, c] = [0, 1, 2].map((r) => card.cells[r * 3 + col]?.symbol);
        expect(a === b && b === c).toBe(false);
      }
    }
  });

  it('match-three grids never show a symbol more than three times', () => {
    const rng = seededRng(4);
    for (const model of ['oxe-ganhei', 'frevo-da-sorte', 'fera-sortuda'] as const) {
      for (let i = 0; i < 10_000; i++) {
        const card = layoutCard(model, LADDER, i % 9, rng);
        const counts = new Map<string, number>();
        for (const c of card.cells) {
          const key = `${c.symbol}${c.prizeLevel ?? ''}`;
          counts.set(key, (counts.get(key) ?? 0) + 1);
        }
        expect(Math.max(...counts.values())).toBeLessThanOrEqual(3);
      }
    }
  });

  it('fera-sortuda wins both through the grid and through the bonus box', () => {
    const rng = seededRng(5);
    let viaBonus = 0;
    for (let i = 0; i < 1_000; i++) {
      if (layoutCard('fera-sortuda', LADDER, 4, rng).winningExtras.length > 0) viaBonus++;
    }
    expect(viaBonus).toBeGreaterThan(150);
    expect(viaBonus).toBeLessThan(350);
  });
});

describe('argument checks', () => {
  it('rejects bad levels, ladders and models with RangeError', () => {
    const rng = seededRng(1);
    for (const level of [-1, 9, 1.5, Number.NaN]) {
      expect(() => layoutCard('oxe-ganhei', LADDER, level, rng)).toThrow(RangeError);
    }
    const short = { ...LADDER, levels: LADDER.levels.slice(0, 7) };
    expect(() => layoutCard('oxe-ganhei', short, 1, rng)).toThrow(/8 levels/);
    const flat = { ...LADDER, levels: LADDER.levels.map((l) => ({ ...l, prize: 100 })) };
    expect(() => layoutCard('oxe-ganhei', flat, 1, rng)).toThrow(/strictly increasing/);
    const renumbered = { ...LADDER, levels: LADDER.levels.map((l) => ({ ...l, level: l.level - 1 })) };
    expect(() => layoutCard('oxe-ganhei', renumbered, 1, rng)).toThrow(RangeError);
    expect(() => layoutCard('nope' as GameModel, LADDER, 1, rng)).toThrow(/unknown game model/);
    const card = layoutCard('oxe-ganhei', LADDER, 1, rng);
    expect(() => readCard(card, short)).toThrow(RangeError);
  });

  it('rejects malformed and ambiguous stored cards instead of guessing', () => {
    const rng = seededRng(2);
    const bad = (card: unknown) => () => readCard(card as Card, LADDER);
    const oxe = layoutCard('oxe-ganhei', LADDER, 0, rng);
    expect(bad({ ...oxe, model: 'x' })).toThrow(/unknown game model/);
    expect(bad({ ...oxe, rule: 'row-of-three' })).toThrow(RangeError);
    expect(bad({ ...oxe, cells: oxe.cells.slice(1) })).toThrow(/cells/);
    expect(bad({ ...oxe, cells: oxe.cells.map((c) => ({ ...c, prizeLevel: 9 })) })).toThrow(/prizeLevel/);
    const twoTriples = [1, 1, 1, 2, 2, 2, 3, 4, 5].map((p) => ({ symbol: 'valor', prizeLevel: p }));
    expect(bad({ ...oxe, cells: twoTriples })).toThrow(/more than one/);

    const frevo = layoutCard('frevo-da-sorte', LADDER, 0, rng);
    expect(bad({ ...frevo, cells: frevo.cells.map(() => ({ symbol: 'boi' })) })).toThrow(/unknown symbol/);

    const v1 = layoutCard('trem-de-ouro-v1', LADDER, 2, rng);
    expect(bad({ ...v1, cells: v1.cells.map(() => ({ symbol: 'cafe' })) })).toThrow(/more than one/);

    const boi = layoutCard('bumba-meu-green', LADDER, 3, rng);
    expect(bad({ ...boi, cells: boi.cells.map(() => ({ symbol: 'boi', prizeLevel: 1 })) })).toThrow(
      /winning spots/,
    );

    const fera = layoutCard('fera-sortuda', LADDER, 0, rng);
    const triple = fera.cells.map((c, i) => (i < 3 ? { symbol: 'leao' } : c));
    expect(bad({ ...fera, cells: triple, extras: [{ symbol: 'onca', prizeLevel: 2 }] })).toThrow(RangeError);

    const v3 = layoutCard('trem-de-ouro-v3', LADDER, 0, rng);
    const same = v3.extras.map(() => v3.extras[0]);
    expect(bad({ ...v3, extras: same })).toThrow(/repeated winning number/);
    expect(bad({ ...v3, extras: v3.extras.map((e) => ({ ...e, number: 99 })) })).toThrow(/number/);
  });
});
