import { GAME_MODELS, isGameModel, LEVEL_COUNT } from '../models.ts';
import { findCurrency } from '../money/currencies.ts';
import { scaledInteger } from '../money/decimal.ts';
import { formatAmount, toMinor } from '../money/money.ts';
import { LADDER_LIMITS } from './ladder-limits.ts';
import { LADDER_SHAPES, type LadderShape } from './ladder-shapes.ts';
import type { Ladder, LadderInput, LadderLevel, LadderProblem, LadderResult } from './ladder-types.ts';

const MILLION = 1_000_000n;
/** Prize base `b` is searched in thousandths of a minor unit; multipliers are in hundredths. */
const BASE_SCALE = 1000n * 100n;

interface ExactInput {
  input: LadderInput;
  rtpPpm: bigint;
  prizedPpm: bigint;
  betMinor: bigint;
}

/**
 * The prize ladder of docs/contract.md §4: integer minor units throughout (BigInt where products
 * could pass 2^53), so the same inputs give the same ladder, byte for byte, everywhere.
 */
export function buildLadder(input: LadderInput): LadderResult {
  const exact = readInput(input);
  if (!('rtpPpm' in exact)) return { ok: false, problems: exact };
  const { rtpPpm, prizedPpm, betMinor } = exact;
  const { sampling, currency, gameModel } = input;

  const totalAmount = BigInt(sampling) * betMinor;
  if (totalAmount > BigInt(Number.MAX_SAFE_INTEGER)) {
    return fail(
      'betPrice',
      `sampling × betPrice must stay within ${Number.MAX_SAFE_INTEGER} minor units to be accounted exactly; lower one of them`,
    );
  }
  const budget = (totalAmount * rtpPpm) / MILLION;
  const totalPrized = (BigInt(sampling) * prizedPpm * 2n + MILLION) / (2n * MILLION);
  const shape = LADDER_SHAPES[gameModel];

  let winners = apportionWinners(totalPrized, shape.winnersPpm);
  if (minimumPayout(winners) > budget) {
    // Too tight for the model's shape: all but seven winners take the smallest prize.
    winners = [totalPrized - BigInt(LEVEL_COUNT - 1), ...Array<bigint>(LEVEL_COUNT - 1).fill(1n)];
  }
  const minimum = minimumPayout(winners);
  if (minimum > budget) {
    return fail(
      'ladder',
      `the prize budget (totalDistribuitionAmount ${formatAmount(Number(budget), currency)} ${currency}) cannot pay ` +
        `${totalPrized} winners 8 rising prizes of at least one minor unit each (that needs ` +
        `${formatAmount(Number(minimum), currency)} ${currency}); raise betPrice or rtp, or lower prizedPercent`,
    );
  }

  const prizes = fitPrizes(winners, shape, budget);
  const paid = sum(prizes.map((prize, i) => prize * at(winners, i)));
  // |paid/totalAmount − rtp| ≤ 0.001, in integers (paid ≤ budget ≤ rtp × totalAmount).
  if (rtpPpm * totalAmount - paid * MILLION > 1000n * totalAmount) {
    return fail(
      'ladder',
      'these settings cannot reach the rtp within 0.001 in whole minor units; raise betPrice or sampling',
    );
  }

  const levels: LadderLevel[] = prizes.map((prize, i) => {
    const levelWinners = at(winners, i);
    const totalPrize = prize * levelWinners;
    return {
      level: i + 1,
      winners: Number(levelWinners),
      totalPrize: Number(totalPrize),
      prize: Number(prize),
      percentage: ratio(totalPrize, budget),
    };
  });
  const ladder: Ladder = {
    gameModel,
    currency,
    rtpPpm: Number(rtpPpm),
    prizedPpm: Number(prizedPpm),
    sampling,
    betPrice: Number(betMinor),
    totalAmount: Number(totalAmount),
    totalDistribuitionAmount: Number(budget),
    totalPrized: Number(totalPrized),
    totalLevels: LEVEL_COUNT,
    levels,
    maxBetPrize: Number(at(prizes, LEVEL_COUNT - 1)),
  };
  return { ok: true, ladder };
}

/** Checks each field against the spec's limits and reads the ratios and the price exactly. */
function readInput(input: LadderInput): ExactInput | LadderProblem[] {
  const problems: LadderProblem[] = [];
  const { rtp, sampling, prizedPercent, betPrice, currency, gameModel } = input;
  if (!isGameModel(gameModel)) {
    problems.push({ field: 'gameModel', message: `gameModel must be one of ${GAME_MODELS.join(', ')}` });
  }
  const rtpPpm = readRatio(problems, 'rtp', rtp, LADDER_LIMITS.rtp);
  const prizedPpm = readRatio(problems, 'prizedPercent', prizedPercent, LADDER_LIMITS.prizedPercent);
  const { min, max } = LADDER_LIMITS.sampling;
  if (!Number.isInteger(sampling) || sampling < min || sampling > max) {
    problems.push({
      field: 'sampling',
      message: `sampling must be a whole number above 100000 and at most ${max.toLocaleString('en')}`,
    });
  }
  let betMinor: bigint | undefined;
  if (!findCurrency(currency)) {
    problems.push({
      field: 'currency',
      message: `currency must be an ISO 4217 code such as BRL, got ${currency}`,
    });
  } else if (typeof betPrice !== 'number' || !Number.isFinite(betPrice) || betPrice <= 0) {
    problems.push({ field: 'betPrice', message: 'betPrice must be a positive number' });
  } else if (betPrice > LADDER_LIMITS.betPrice.maxMajor) {
    problems.push({
      field: 'betPrice',
      message: `betPrice must be at most ${LADDER_LIMITS.betPrice.maxMajor}`,
    });
  } else {
    const minor = toMinor(betPrice, currency);
    if (minor.ok) betMinor = BigInt(minor.minor);
    else problems.push({ field: 'betPrice', message: `betPrice ${minor.message}` });
  }
  if (problems.length > 0 || rtpPpm === undefined || prizedPpm === undefined || betMinor === undefined) {
    return problems;
  }
  return { input, rtpPpm, prizedPpm, betMinor };
}

function readRatio(
  problems: LadderProblem[],
  field: 'rtp' | 'prizedPercent',
  value: number,
  limits: { min: number; max: number },
): bigint | undefined {
  const range = `between ${limits.min.toFixed(2)} and ${limits.max.toFixed(2)}`;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < limits.min || value > limits.max) {
    problems.push({ field, message: `${field} must be a number ${range}` });
    return undefined;
  }
  const ppm = scaledInteger(value, LADDER_LIMITS.ratioDecimals);
  if (ppm === undefined) {
    problems.push({ field, message: `${field} may have at most ${LADDER_LIMITS.ratioDecimals} decimals` });
  }
  return ppm;
}

/** Largest-remainder split of the winners by the shape; every level keeps at least one winner. */
function apportionWinners(total: bigint, sharesPpm: readonly number[]): bigint[] {
  const exact = sharesPpm.map((share) => total * BigInt(share));
  const winners = exact.map((value) => value / MILLION);
  let left = total - sum(winners);
  const order = exact
    .map((value, i) => ({ i, remainder: value % MILLION }))
    .sort((a, b) => (a.remainder === b.remainder ? a.i - b.i : a.remainder > b.remainder ? -1 : 1));
  for (const { i } of order) {
    if (left === 0n) break;
    winners[i] = at(winners, i) + 1n;
    left--;
  }
  for (let i = 1; i < winners.length; i++) {
    if (at(winners, i) === 0n) {
      winners[i] = 1n;
      winners[0] = at(winners, 0) - 1n;
    }
  }
  return winners;
}

/** What the winners cost with the smallest rising prizes: 1, 2, … 8 minor units. */
function minimumPayout(winners: readonly bigint[]): bigint {
  return sum(winners.map((count, i) => count * BigInt(i + 1)));
}

function prizesAt(base: bigint, multipliers: readonly number[]): bigint[] {
  const prizes: bigint[] = [];
  let previous = 0n;
  for (const multiplier of multipliers) {
    const shaped = (BigInt(multiplier) * base) / BASE_SCALE;
    previous = shaped > previous ? shaped : previous + 1n;
    prizes.push(previous);
  }
  return prizes;
}

/**
 * Prizes in the model's proportions, as large as the budget allows: the largest base whose
 * payout fits (payout grows with the base, so a binary search finds it), then the leftover
 * spread in the same proportions, then what is still left to the jackpot.
 */
function fitPrizes(winners: readonly bigint[], shape: LadderShape, budget: bigint): bigint[] {
  const payout = (prizes: readonly bigint[]) => sum(prizes.map((prize, i) => prize * at(winners, i)));
  let low = 0n;
  let high = (budget + 1n) * 1000n;
  while (high - low > 1n) {
    const middle = (low + high) / 2n;
    if (payout(prizesAt(middle, shape.multipliers)) <= budget) low = middle;
    else high = middle;
  }
  const prizes = prizesAt(low, shape.multipliers);
  const leftover = budget - payout(prizes);
  const weight = sum(shape.multipliers.map((multiplier, i) => BigInt(multiplier) * at(winners, i)));
  // Extras grow with the multiplier, so prizes stay strictly increasing.
  const spread = prizes.map((prize, i) => prize + (leftover * BigInt(shape.multipliers[i] ?? 0)) / weight);
  const top = LEVEL_COUNT - 1;
  spread[top] = at(spread, top) + (budget - payout(spread)) / at(winners, top);
  return spread;
}

function fail(field: LadderProblem['field'], message: string): LadderResult {
  return { ok: false, problems: [{ field, message }] };
}

function sum(values: readonly bigint[]): bigint {
  return values.reduce((total, value) => total + value, 0n);
}

function at(values: readonly bigint[], index: number): bigint {
  const value = values[index];
  if (value === undefined) throw new RangeError(`no level ${index + 1}`);
  return value;
}

/** A share rounded to 6 decimals: enough for display, stable across platforms. */
function ratio(part: bigint, whole: bigint): number {
  return Number((part * MILLION * 2n + whole) / (2n * whole)) / 1_000_000;
}
