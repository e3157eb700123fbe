// `pnpm ladder …`: prints a game's prize ladder as a table, or with --json as the `data`
// of the spec's Game create response for a simulation; --simulate N adds how N cards in a row end.
import { buildLadder, gameCreateData, PLAYER_RESULTS_DEFAULTS, playerResults, seededRng } from '@raspa/core';
import { LADDER_USAGE, parseLadderArgs } from './ladder-args.ts';
import { renderLadderTable } from './ladder-table.ts';
import { renderPlayerResults } from './player-results-table.ts';

const parsed = parseLadderArgs(process.argv.slice(2));
if (!parsed.ok) {
  console.error(`${parsed.errors.join('\n')}\n\n${LADDER_USAGE}`);
  process.exit(2);
}
const result = buildLadder(parsed.command.input);
if (!result.ok) {
  console.error(result.problems.map((problem) => `${problem.field}: ${problem.message}`).join('\n'));
  process.exit(1);
}
console.log(
  parsed.command.json
    ? JSON.stringify(gameCreateData(result.ladder, { id: null, version: null, active: false }), null, 2)
    : renderLadderTable(result.ladder),
);
const simulate = parsed.command.simulate;
if (simulate) {
  const { trials } = PLAYER_RESULTS_DEFAULTS;
  const results = playerResults(result.ladder, simulate.cards, trials, seededRng(simulate.seed));
  console.log(`\n${renderPlayerResults(result.ladder, results, simulate.seed)}`);
}
