// What `npm start` runs until the service exists (the API issue turns it into the server):
// the ladder of the demo game, so a newcomer sees the core at work.
import { buildLadder, type LadderInput } from '@raspa/core';
import { renderLadderTable } from './ladder-table.ts';

const DEMO_GAME: LadderInput = {
  gameModel: 'oxe-ganhei',
  currency: 'BRL',
  rtp: 0.9,
  sampling: 1_000_000,
  prizedPercent: 0.3,
  betPrice: 2,
};

const result = buildLadder(DEMO_GAME);
if (!result.ok) throw new Error(`the demo game no longer builds: ${JSON.stringify(result.problems)}`);
console.log(
  [
    'Raspa: the server is not built yet (it comes with the integrator API). Here is the ladder of the demo game:',
    '',
    renderLadderTable(result.ladder),
    '',
    'Try another: npm run ladder -- --model fera-sortuda --rtp 0.95 --sampling 5000000 --prized 0.25 --bet 1 --currency BRL',
  ].join('\n'),
);
