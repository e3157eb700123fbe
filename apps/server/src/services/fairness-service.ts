import {
  type Card,
  MAX_LISTED_MISMATCHES,
  type PoolVerification,
  type RecordedDraw,
  readCard,
  startPoolVerification,
} from '@raspa/core';
import type { GameRecord, PoolDrawRecord, PoolRecord } from '../store/records.ts';
import { eachPoolDraw, type Repositories } from '../store/store.ts';
import type { AuthContext } from './auth-context.ts';
import { owned } from './ownership.ts';

/** A round of the pool whose record disagrees with the seed, its card or the ladder. */
export interface RoundProblem {
  roundId: string;
  drawIndex: number | null;
  message: string;
}

export interface PoolCheck {
  pool: PoolRecord;
  /** ended: the seed is published and everything was checked; running: only the commitment's format. */
  state: 'ended' | 'running';
  commitmentFormatOk: boolean;
  /** The core's re-derivation of the whole pool from its seed; null while the pool runs. */
  verification: PoolVerification | null;
  /** Rounds of the pool read from the database. */
  roundsChecked: number;
  /** Problems of the pool as a whole (commitment, ticket counts, draw counter). */
  poolProblems: string[];
  /** The first MAX_LISTED_MISMATCHES round problems, by draw index. */
  roundProblems: RoundProblem[];
  /** Every round problem, listed or not. */
  roundProblemCount: number;
  ok: boolean;
}

export type GameCheck = { ok: true; game: GameRecord; pools: PoolCheck[] } | { ok: false; message: string };

const COMMITMENT_FORMAT = /^[0-9a-f]{64}$/;

/**
 * Fairness (docs/contract.md §5): each game version's pools as published (the commitment from the start,
 * the seed once the pool has ended), and the check anyone can repeat with a published seed: the
 * pool re-derived from it holds exactly the promised winners, and every round recorded the ticket
 * the seed put at its draw index, with a card showing that level and the ladder's prize for it.
 */
export function createFairnessService(store: Pick<Repositories, 'games' | 'pools' | 'rounds'>) {
  /** Reads every round of the pool, a page at a time, checking each record and handing its draw on. */
  async function scanRounds(
    game: GameRecord,
    pool: PoolRecord,
    found: (problem: RoundProblem) => void,
    draw: (recorded: RecordedDraw) => void,
  ): Promise<number> {
    let rounds = 0;
    for await (const round of eachPoolDraw(store.rounds, pool.id)) {
      rounds++;
      for (const message of roundRecordProblems(round, game)) {
        found({ roundId: round.roundId, drawIndex: round.drawIndex, message });
      }
      if (round.drawIndex !== null && round.level !== null) {
        draw({ drawIndex: round.drawIndex, level: round.level });
      }
    }
    return rounds;
  }

  async function checkPool(game: GameRecord, pool: PoolRecord): Promise<PoolCheck> {
    const commitmentFormatOk = COMMITMENT_FORMAT.test(pool.commitment);
    const poolProblems: string[] = [];
    if (!commitmentFormatOk) poolProblems.push('the commitment is not 64 lowercase hexadecimal characters');
    if (pool.endedAt === null) {
      return {
        pool,
        state: 'running',
        commitmentFormatOk,
        verification: null,
        roundsChecked: 0,
        poolProblems,
        roundProblems: [],
        roundProblemCount: 0,
        ok: commitmentFormatOk,
      };
    }

    const problems: RoundProblem[] = [];
    let problemCount = 0;
    const found = (problem: RoundProblem) => {
      problemCount++;
      if (problems.length < MAX_LISTED_MISMATCHES) problems.push(problem);
    };
    const winners = game.ladder.levels.map((level) => level.winners);
    const verifier =
      pool.seedHex === null
        ? null
        : startPoolVerification(pool.seedHex, pool.commitment, pool.sampling, winners);
    // Every round is checked, whether or not the verifier can derive the pool.
    const roundsChecked = await scanRounds(game, pool, found, (draw) => verifier?.check(draw));
    const verification = verifier?.result() ?? null;

    if (pool.seedHex === null) poolProblems.push('the pool has ended but its seed was not published');
    if (verification) {
      if (verification.error) poolProblems.push(`the pool cannot be derived: ${verification.error}`);
      if (!verification.commitmentMatches) {
        poolProblems.push('the SHA-256 of the published seed is not the commitment');
      }
      if (!verification.error && !verification.countsMatch) {
        poolProblems.push(
          `the seed gives ${describeCounts(verification.levelCounts)}, not the ladder's winners (${winners.join(', ')})`,
        );
      }
      for (const mismatch of verification.mismatches) {
        const round = await store.rounds.findPoolDraw(pool.id, mismatch.drawIndex);
        found({
          roundId: round?.roundId ?? '(unknown)',
          drawIndex: mismatch.drawIndex,
          message: mismatchMessage(mismatch),
        });
      }
      // Mismatches past the verifier's list are counted, not named.
      problemCount += verification.mismatchCount - verification.mismatches.length;
    }
    if (pool.draws !== pool.sampling) {
      poolProblems.push(`the pool ended after ${pool.draws} draws, not ${pool.sampling}`);
    }
    if (roundsChecked !== pool.draws) {
      poolProblems.push(`the pool counts ${pool.draws} draws but ${roundsChecked} rounds drew from it`);
    }
    problems.sort((a, b) => (a.drawIndex ?? -1) - (b.drawIndex ?? -1));
    return {
      pool,
      state: 'ended',
      commitmentFormatOk,
      verification,
      roundsChecked,
      poolProblems,
      roundProblems: problems,
      roundProblemCount: problemCount,
      ok: poolProblems.length === 0 && problemCount === 0,
    };
  }

  return {
    /** The pools of a game version, oldest first (404 for an unknown game or another client's). */
    async listPools(auth: AuthContext, gameId: string): Promise<PoolRecord[]> {
      owned(await store.games.findById(gameId), auth.clientId, `game ${gameId}`);
      return store.pools.listByGame(gameId);
    },

    /** Checks every pool of a game version, or the one given. */
    async checkGame(gameId: string, poolId?: string): Promise<GameCheck> {
      const game = await store.games.findById(gameId);
      if (!game) return { ok: false, message: `game ${gameId} was not found` };
      let pools = await store.pools.listByGame(gameId);
      if (poolId !== undefined) {
        pools = pools.filter((pool) => pool.id === poolId);
        if (pools.length === 0)
          return { ok: false, message: `pool ${poolId} is not a pool of game ${gameId}` };
      }
      // One pool at a time: each holds its derived ticket table while it is checked.
      const checks: PoolCheck[] = [];
      for (const pool of pools) checks.push(await checkPool(game, pool));
      return { ok: true, game, pools: checks };
    },
  };
}

/** What a round's own record must agree on: its card shows its level, its prize is that level's. */
function roundRecordProblems(round: PoolDrawRecord, game: GameRecord): string[] {
  if (round.drawIndex === null || round.level === null)
    return ['drew from the pool but has no draw index or level'];
  const problems: string[] = [];
  const ladderPrize = round.level === 0 ? 0 : game.ladder.levels[round.level - 1]?.prize;
  if (ladderPrize === undefined) problems.push(`recorded level ${round.level} is not a level of the ladder`);
  else if (round.prizeMinor !== ladderPrize) {
    problems.push(
      `prize ${round.prizeMinor} (minor units) is not the ladder's ${ladderPrize} for level ${round.level}`,
    );
  }
  const shown = cardLevel(round.cardJson, game);
  if (typeof shown === 'string') problems.push(shown);
  else if (shown !== round.level)
    problems.push(`the card shows level ${shown}, the round recorded level ${round.level}`);
  return problems;
}

/** The level the stored card shows by its model's rule, or why it cannot be read. */
function cardLevel(cardJson: string | null, game: GameRecord): number | string {
  if (cardJson === null) return 'has no card';
  try {
    const card = JSON.parse(cardJson) as Card;
    if (card?.model !== game.gameModel)
      return `the card is of model ${String(card?.model)}, not ${game.gameModel}`;
    return readCard(card, game.ladder);
  } catch (error) {
    return `the card cannot be read: ${error instanceof Error ? error.message : String(error)}`;
  }
}

function mismatchMessage(mismatch: PoolVerification['mismatches'][number]): string {
  if (mismatch.reason === 'out-of-range') return `draw index ${mismatch.drawIndex} is outside the pool`;
  if (mismatch.reason === 'duplicate') return `draw index ${mismatch.drawIndex} was drawn twice`;
  return `recorded level ${mismatch.recorded}, but the seed puts a level ${mismatch.expected} ticket at draw ${mismatch.drawIndex}`;
}

function describeCounts(counts: readonly number[]): string {
  return counts.map((count, level) => `level ${level}: ${count}`).join(', ');
}
