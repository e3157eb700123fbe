/**
 * Fairness verifier (docs/contract.md §5): re-derives each ended pool of a game version from its published
 * seed and checks it against the commitment, the ladder's winners and every round drawn from it.
 *
 *   pnpm verify-pool --game <gameId> [--pool <poolId>] [--data-dir <dir>]
 *
 * Reads the service's SQLite file (DATA_DIR/raspa.sqlite, from the environment or .env like the
 * server; --data-dir wins) read-only, so it can run beside the live service. Exit 0 when every
 * check holds, 1 when one fails, 2 on bad arguments or a database it cannot read.
 */
import { formatAmount } from '@raspa/core';
import { createFairnessService, type PoolCheck } from '../services/fairness-service.ts';
import type { GameRecord } from '../store/records.ts';
import { openCliStore } from './cli-store.ts';
import { readToolOptions, refuseUsage } from './tool-options.ts';

const USAGE = 'usage: pnpm verify-pool --game <gameId> [--pool <poolId>] [--data-dir <dir>]';

interface Options {
  gameId: string;
  poolId: string | undefined;
  dataDir: string | undefined;
}

function readOptions(argv: string[]): Options | string {
  const values = readToolOptions(argv, ['game', 'pool', 'data-dir']);
  if (typeof values === 'string') return values;
  if (!values.game) return '--game is required (the id of the game version)';
  return { gameId: values.game, poolId: values.pool, dataDir: values['data-dir'] };
}

/** The report of one pool, as lines. */
function poolReport(check: PoolCheck, game: GameRecord): string[] {
  const { pool } = check;
  const lines = [
    `Pool ${pool.number} (${pool.id}): ${pool.sampling} tickets, ${pool.draws} drawn, started ${pool.startedAt}` +
      (pool.endedAt ? `, ended ${pool.endedAt}` : ', still running'),
    `  commitment ${pool.commitment}`,
  ];
  if (check.state === 'running') {
    lines.push(
      `  ${check.commitmentFormatOk ? 'ok  ' : 'FAIL'} the commitment is a SHA-256 in hex`,
      '  the seed is not published yet (it is when the pool ends): nothing more can be verified',
    );
    for (const problem of check.poolProblems) lines.push(`  FAIL ${problem}`);
    return lines;
  }
  const verification = check.verification;
  if (verification) {
    lines.push(`  seed       ${pool.seedHex}`);
    lines.push(`  ${verification.commitmentMatches ? 'ok  ' : 'FAIL'} SHA-256(seed) is the commitment`);
    if (!verification.error) {
      lines.push(`  ${verification.countsMatch ? 'ok  ' : 'FAIL'} the pool re-derived from the seed holds:`);
      verification.levelCounts.forEach((count, level) => {
        const promised = level === 0 ? undefined : game.ladder.levels[level - 1];
        lines.push(
          level === 0
            ? `         level 0 (losing): ${count}`
            : `         level ${level}: ${count} tickets (ladder: ${promised?.winners} × ${formatAmount(promised?.prize ?? 0, game.currency)} ${game.currency})`,
        );
      });
    }
  }
  const roundsOk = check.roundProblemCount === 0;
  lines.push(
    `  ${roundsOk ? 'ok  ' : 'FAIL'} ${check.roundsChecked} rounds checked (recorded level = the ticket at its draw ` +
      `index, the card shows that level, the prize is the ladder's): ${check.roundProblemCount} mismatches`,
  );
  for (const problem of check.poolProblems) lines.push(`  FAIL ${problem}`);
  for (const problem of check.roundProblems) {
    const draw = problem.drawIndex === null ? '' : ` (draw ${problem.drawIndex})`;
    lines.push(`  MISMATCH round ${problem.roundId}${draw}: ${problem.message}`);
  }
  const unlisted = check.roundProblemCount - check.roundProblems.length;
  if (unlisted > 0) lines.push(`  … and ${unlisted} more mismatches not listed`);
  return lines;
}

async function main(argv: string[]): Promise<number> {
  const options = readOptions(argv);
  if (typeof options === 'string') return refuseUsage(options, USAGE);
  // Read-only: the verifier never changes the ledger, and can run beside the live service.
  const opened = openCliStore(options.dataDir, USAGE);
  if (!opened) return 2;
  const { store, where: file } = opened;
  try {
    // Every pool is read inside one snapshot, so a pool ending meanwhile cannot split the report.
    const result = await store.transaction((tx) =>
      createFairnessService(tx).checkGame(options.gameId, options.poolId),
    );
    if (!result.ok) {
      console.error(`${result.message} in ${file}\n${USAGE}`);
      return 2;
    }
    const { game, pools } = result;
    const write = (line: string) => process.stdout.write(`${line}\n`);
    write(`Fairness check of game ${game.id} (${game.gameModel} version ${game.version}, ${file})`);
    write(`  ${pools.length} pool${pools.length === 1 ? '' : 's'}${options.poolId ? ' selected' : ''}`);
    for (const check of pools) {
      write('');
      for (const line of poolReport(check, game)) write(line);
    }
    const failed = pools.filter((check) => !check.ok).length;
    const ended = pools.filter((check) => check.state === 'ended').length;
    write('');
    if (failed > 0) write(`FAILED: ${failed} of ${pools.length} pools do not check.`);
    else if (ended === 0) write('OK: no pool has ended yet, so no seed is published to verify against.');
    else
      write(
        `OK: ${ended} ended pool${ended === 1 ? '' : 's'} verified from the published seed` +
          (ended < pools.length ? `; ${pools.length - ended} still running.` : '.'),
      );
    return failed > 0 ? 1 : 0;
  } finally {
    await store.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
