import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GAME_MODELS, type GameModel } from '../models.ts';
import { currencyExponent } from '../money/currencies.ts';
import { decimalText } from '../money/decimal.ts';
import { buildLadder } from './build-ladder.ts';
import { gameFigures } from './game-info.ts';
import type { Ladder, LadderInput } from './ladder-types.ts';

const CURRENCIES = ['BRL', 'JPY', 'KWD'] as const;

/** Valid inputs over the whole space, with the corners drawn often. */
const validInput = fc
  .record({
    gameModel: fc.constantFrom(...GAME_MODELS),
    currency: fc.constantFrom(...CURRENCIES),
    rtpPpm: fc.oneof(fc.constantFrom(500_000, 950_000), fc.integer({ min: 500_000, max: 950_000 })),
    sampling: fc.oneof(fc.constantFrom(100_001, 100_000_000), fc.integer({ min: 100_001, max: 100_000_000 })),
    prizedPpm: fc.oneof(fc.constantFrom(200_000, 1_000_000), fc.integer({ min: 200_000, max: 1_000_000 })),
    betMinorOfMajor: fc.oneof(
      fc.constantFrom('min', 'one', 'max'),
      fc.integer({ min: 1, max: 100_000_000 }).map((n) => n),
    ),
  })
  .map(({ gameModel, currency, rtpPpm, sampling, prizedPpm, betMinorOfMajor }): LadderInput => {
    const exponent = currencyExponent(currency);
    const maxMinor = 100_000 * 10 ** exponent;
    const betMinor =
      betMinorOfMajor === 'min'
        ? 1
        : betMinorOfMajor === 'one'
          ? 10 ** exponent
          : betMinorOfMajor === 'max'
            ? maxMinor
            : Math.min(betMinorOfMajor, maxMinor);
    return {
      gameModel,
      currency,
      rtp: rtpPpm / 1e6,
      sampling,
      prizedPercent: prizedPpm / 1e6,
      betPrice: Number(decimalText(betMinor, exponent)),
    };
  });

/** Every rule of docs/contract.md §4, checked with BigInt so the check cannot share a float bug. */
function expectContractRules(input: LadderInput, ladder: Ladder): void {
  const exponent = currencyExponent(input.currency);
  const betMinor = BigInt(Math.round(input.betPrice * 10 ** exponent));
  const rtpPpm = BigInt(Math.round(input.rtp * 1e6));
  const prizedPpm = BigInt(Math.round(input.prizedPercent * 1e6));
  const sampling = BigInt(input.sampling);
  const totalAmount = sampling * betMinor;
  expect(BigInt(ladder.totalAmount)).toBe(totalAmount);
  expect(BigInt(ladder.totalDistribuitionAmount)).toBe((totalAmount * rtpPpm) / 1_000_000n);
  // round half up of sampling × prizedPercent
  expect(BigInt(ladder.totalPrized)).toBe((sampling * prizedPpm + 500_000n) / 1_000_000n);
  expect(ladder.totalLevels).toBe(8);
  expect(ladder.levels.map((level) => level.level)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);

  let paid = 0n;
  let winners = 0n;
  for (const [i, level] of ladder.levels.entries()) {
    expect(Number.isSafeInteger(level.prize)).toBe(true);
    expect(level.prize).toBeGreaterThanOrEqual(1);
    expect(level.winners).toBeGreaterThanOrEqual(1);
    expect(BigInt(level.totalPrize)).toBe(BigInt(level.prize) * BigInt(level.winners));
    if (i > 0) expect(level.prize).toBeGreaterThan(ladder.levels[i - 1]?.prize ?? 0);
    expect(level.winners).toBeLessThanOrEqual(ladder.levels[0]?.winners ?? 0);
    // rounded half up to 6 decimals
    expect(
      Math.abs(level.percentage - level.totalPrize / ladder.totalDistribuitionAmount),
    ).toBeLessThanOrEqual(5.000001e-7);
    paid += BigInt(level.totalPrize);
    winners += BigInt(level.winners);
  }
  expect(winners).toBe(BigInt(ladder.totalPrized));
  expect(paid <= BigInt(ladder.totalDistribuitionAmount)).toBe(true);
  // |paid / totalAmount − rtp| ≤ 0.001
  const gap = rtpPpm * totalAmount - paid * 1_000_000n;
  expect(gap >= 0n && gap <= 1000n * totalAmount).toBe(true);
  expect(ladder.maxBetPrize).toBe(ladder.levels[7]?.prize);
}

describe('buildLadder', () => {
  it('meets every rule of the contract, or says the budget is truly too small, for every valid input', () => {
    fc.assert(
      fc.property(validInput, (input) => {
        const result = buildLadder(input);
        if (result.ok) {
          expectContractRules(input, result.ladder);
          return;
        }
        // The only refusals of a valid input: a pool worth more than 2^53 minor units, or 8 rising
        // prizes of ≥ 1 minor unit that cannot fit. The cheapest possible ladder pays 1 minor unit to
        // all but seven winners and 2…8 to the other seven.
        const exponent = currencyExponent(input.currency);
        const totalAmount = BigInt(input.sampling) * BigInt(Math.round(input.betPrice * 10 ** exponent));
        if (totalAmount > BigInt(Number.MAX_SAFE_INTEGER)) {
          expect(result.problems).toEqual([
            { field: 'betPrice', message: expect.stringMatching(/minor units/) },
          ]);
          return;
        }
        expect(result.problems).toEqual([
          { field: 'ladder', message: expect.stringMatching(/prize budget/) },
        ]);
        const budget = (totalAmount * BigInt(Math.round(input.rtp * 1e6))) / 1_000_000n;
        const winners =
          (BigInt(input.sampling) * BigInt(Math.round(input.prizedPercent * 1e6)) + 500_000n) / 1_000_000n;
        expect(winners + 28n > budget).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it.each(
    GAME_MODELS.flatMap((gameModel) =>
      [
        { currency: 'BRL', betPrice: 0.01, sampling: 100_001, rtp: 0.95, prizedPercent: 0.2 },
        { currency: 'BRL', betPrice: 1000, sampling: 100_000_000, rtp: 0.5, prizedPercent: 1 },
        { currency: 'JPY', betPrice: 1, sampling: 100_000_000, rtp: 0.95, prizedPercent: 0.2 },
        { currency: 'KWD', betPrice: 1000, sampling: 100_001, rtp: 0.5, prizedPercent: 1 },
        { currency: 'KWD', betPrice: 0.5, sampling: 2_500_000, rtp: 0.9, prizedPercent: 0.35 },
      ].map((corner) => ({ gameModel, ...corner })),
    ),
  )('meets the rules at the corner %o', (input) => {
    const result = buildLadder(input);
    expect(result.ok).toBe(true);
    if (result.ok) expectContractRules(input, result.ladder);
  });

  it('gives the same ladder byte for byte for the same input', () => {
    fc.assert(
      fc.property(validInput, (input) => {
        expect(JSON.stringify(buildLadder(input))).toBe(JSON.stringify(buildLadder({ ...input })));
      }),
      { numRuns: 200 },
    );
  });

  it('shapes each model differently', () => {
    const base = { currency: 'BRL', rtp: 0.9, sampling: 1_000_000, prizedPercent: 0.3, betPrice: 2 };
    const tops = GAME_MODELS.map((gameModel) => {
      const result = buildLadder({ ...base, gameModel });
      if (!result.ok) throw new Error('expected a ladder');
      return result.ladder.maxBetPrize / (result.ladder.levels[0]?.prize ?? 1);
    });
    expect(new Set(tops).size).toBe(GAME_MODELS.length);
    const ratio = (model: GameModel) => tops[GAME_MODELS.indexOf(model)] ?? 0;
    expect(ratio('fera-sortuda')).toBeGreaterThan(ratio('oxe-ganhei'));
    expect(ratio('trem-de-ouro-v3')).toBeGreaterThan(ratio('trem-de-ouro-v2'));
    expect(ratio('trem-de-ouro-v2')).toBeGreaterThan(ratio('trem-de-ouro-v1'));
    expect(ratio('frevo-da-sorte')).toBeLessThan(ratio('trem-de-ouro-v1'));
  });

  it('matches a known ladder (regression: any change to the algorithm changes live games)', () => {
    const result = buildLadder({
      gameModel: 'oxe-ganhei',
      currency: 'BRL',
      rtp: 0.9,
      sampling: 1_000_000,
      prizedPercent: 0.3,
      betPrice: 2,
    });
    if (!result.ok) throw new Error('expected a ladder');
    expect(gameFigures(result.ladder)).toMatchInlineSnapshot(`
      {
        "levels": [
          {
            "level": 1,
            "percentage": 0.123067,
            "prize": 1.42,
            "totalPrize": 221520,
            "winners": 156000,
          },
          {
            "level": 2,
            "percentage": 0.118333,
            "prize": 2.84,
            "totalPrize": 213000,
            "winners": 75000,
          },
          {
            "level": 3,
            "percentage": 0.123067,
            "prize": 5.68,
            "totalPrize": 221520,
            "winners": 39000,
          },
          {
            "level": 4,
            "percentage": 0.1136,
            "prize": 11.36,
            "totalPrize": 204480,
            "winners": 18000,
          },
          {
            "level": 5,
            "percentage": 0.132533,
            "prize": 28.4,
            "totalPrize": 238560,
            "winners": 8400,
          },
          {
            "level": 6,
            "percentage": 0.134916,
            "prize": 85.21,
            "totalPrize": 242848.5,
            "winners": 2850,
          },
          {
            "level": 7,
            "percentage": 0.136114,
            "prize": 355.08,
            "totalPrize": 245005.2,
            "winners": 690,
          },
          {
            "level": 8,
            "percentage": 0.11837,
            "prize": 3551.1,
            "totalPrize": 213066,
            "winners": 60,
          },
        ],
        "maxBetPrize": 3551.1,
        "totalAmount": 2000000,
        "totalDistribuitionAmount": 1800000,
        "totalLevels": 8,
        "totalPrized": 300000,
      }
    `);
  });
});

describe('buildLadder refuses bad input with a reason per field', () => {
  const good: LadderInput = {
    gameModel: 'oxe-ganhei',
    currency: 'BRL',
    rtp: 0.9,
    sampling: 1_000_000,
    prizedPercent: 0.3,
    betPrice: 2,
  };
  it.each([
    [{ rtp: 0.49 }, 'rtp', /between 0.50 and 0.95/],
    [{ rtp: 0.951 }, 'rtp', /between 0.50 and 0.95/],
    [{ rtp: Number.NaN }, 'rtp', /between/],
    [{ rtp: 0.9000001 }, 'rtp', /at most 6 decimals/],
    [{ sampling: 100_000 }, 'sampling', /above 100000/],
    [{ sampling: 100_000_001 }, 'sampling', /at most 100,000,000/],
    [{ sampling: 200_000.5 }, 'sampling', /whole number/],
    [{ prizedPercent: 0.19 }, 'prizedPercent', /between 0.20 and 1.00/],
    [{ prizedPercent: 1.01 }, 'prizedPercent', /between 0.20 and 1.00/],
    [{ betPrice: 0 }, 'betPrice', /positive/],
    [{ betPrice: -1 }, 'betPrice', /positive/],
    [{ betPrice: 0.001 }, 'betPrice', /too many decimals: BRL allows at most 2/],
    [{ betPrice: 100_001 }, 'betPrice', /at most 100000/],
    [{ currency: 'JPY', betPrice: 1.5 }, 'betPrice', /JPY allows no decimals/],
    [{ currency: 'XYZ' }, 'currency', /ISO 4217/],
    [{ gameModel: 'slot' as GameModel }, 'gameModel', /one of oxe-ganhei/],
  ] as const)('%o → %s', (change, field, message) => {
    const result = buildLadder({ ...good, ...change });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems).toEqual([{ field, message: expect.stringMatching(message) }]);
  });

  it('lists every bad field at once', () => {
    const result = buildLadder({ ...good, rtp: 2, sampling: 5, prizedPercent: 0 });
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.problems.map((problem) => problem.field)).toEqual(['rtp', 'prizedPercent', 'sampling']);
  });

  it('explains an impossible budget', () => {
    const result = buildLadder({ ...good, betPrice: 0.01, rtp: 0.5, prizedPercent: 1, sampling: 100_001 });
    expect(result).toEqual({
      ok: false,
      problems: [
        {
          field: 'ladder',
          message:
            'the prize budget (totalDistribuitionAmount 500.00 BRL) cannot pay 100001 winners 8 rising prizes of at least one minor unit each (that needs 1000.29 BRL); raise betPrice or rtp, or lower prizedPercent',
        },
      ],
    });
  });
});
