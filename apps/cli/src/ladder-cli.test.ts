import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { buildLadder, formatMoney, gameCreateData, playerResults, seededRng } from '@raspa/core';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const tsx = join(here, '..', 'node_modules', '.bin', 'tsx');
const ladder = (args: string[]) => run(tsx, [join(here, 'ladder.ts'), ...args]);

const args = [
  '--model',
  'trem-de-ouro-v3',
  '--rtp',
  '0.92',
  '--sampling',
  '2000000',
  '--prized',
  '0.25',
  '--bet',
  '5',
];

describe('pnpm ladder (the real process)', () => {
  it('--json prints exactly the data of the Game create response', async () => {
    const { stdout } = await ladder([...args, '--currency', 'BRL', '--json']);
    const result = buildLadder({
      gameModel: 'trem-de-ouro-v3',
      rtp: 0.92,
      sampling: 2_000_000,
      prizedPercent: 0.25,
      betPrice: 5,
      currency: 'BRL',
    });
    if (!result.ok) throw new Error('expected a ladder');
    expect(JSON.parse(stdout)).toEqual(
      gameCreateData(result.ladder, { id: null, version: null, active: false }),
    );
  });

  it('prints a table with odds per level', async () => {
    const { stdout } = await ladder(args);
    expect(stdout).toMatch(/^level +winners +prize +total prize +share +odds$/m);
    expect(stdout.match(/^[1-8] .* 1 in [\d.,]+$/gm)).toHaveLength(8);
    expect(stdout).toMatch(/^all +500,000 .* 1 in 4\.00$/m);
  });

  it('--simulate N prints, after the table, how N cards in a row end: the core figures for that seed', async () => {
    const { stdout } = await ladder([...args, '--currency', 'BRL', '--simulate', '50', '--seed', '7']);
    const result = buildLadder({
      gameModel: 'trem-de-ouro-v3',
      rtp: 0.92,
      sampling: 2_000_000,
      prizedPercent: 0.25,
      betPrice: 5,
      currency: 'BRL',
    });
    if (!result.ok) throw new Error('expected a ladder');
    const figures = playerResults(result.ladder, 50, 10_000, seededRng(7));
    const money = (minor: number) =>
      `${minor > 0 ? '+' : ''}${formatMoney(minor, 'BRL', 'en-US', { symbol: false })}`;
    const percent = (x: number) => `${(x * 100).toFixed(2)}%`;
    const [table, simulation] = stdout.split('\n\n50 cards in a row');
    expect(table).toMatch(/^all +500,000 .* 1 in 4\.00$/m);
    expect(simulation).toContain(', 10,000 players (seed 7): 250.00 BRL staked each');
    expect(simulation).toContain(`chance to end ahead ${percent(figures.aheadChance)} · `);
    expect(simulation).toContain(`no win at all ${percent(figures.noWinChance)}`);
    expect(simulation).toContain(
      `median result ${money(figures.median)} · average ${money(figures.mean)} (expected ${money(figures.expected)})`,
    );
    const percentiles = simulation
      ?.match(/^result +(.+)$/m)?.[1]
      ?.trim()
      .split(/ +/);
    expect(percentiles).toEqual(figures.percentiles.map((p) => money(p.net)));
  });

  it('explains an impossible ladder and exits 1', async () => {
    await expect(
      ladder([
        '--model',
        'oxe-ganhei',
        '--rtp',
        '0.5',
        '--sampling',
        '100001',
        '--prized',
        '1',
        '--bet',
        '0.01',
      ]),
    ).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^ladder: the prize budget/),
    });
  });

  it('shows usage and exits 2 on bad options', async () => {
    await expect(ladder(['--model', 'oxe-ganhei'])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/usage:/),
    });
  });
});
