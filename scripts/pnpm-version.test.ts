import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pinned: string = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager.split(
  '@',
)[1];
// Another pnpm 10, as a developer's global install might be.
const other = pinned === '10.20.0' ? '10.19.0' : '10.20.0';
const prefix = mkdtempSync(join(tmpdir(), 'raspa-pnpm-'));
afterAll(() => rmSync(prefix, { recursive: true, force: true }));

describe('a pnpm 10 other than the pinned one', () => {
  it(`runs the README's pnpm commands in the repository (pnpm ${other}, pinned ${pinned})`, () => {
    const installed = spawnSync(
      'npm',
      [
        'install',
        '--prefix',
        prefix,
        '--no-save',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        `pnpm@${other}`,
      ],
      { encoding: 'utf8' },
    );
    expect(installed.status, installed.stderr).toBe(0);
    const pnpm = join(prefix, 'node_modules', '.bin', 'pnpm');
    // Without manage-package-manager-versions=false, pnpm 10 refuses or tries to fetch the pinned one.
    const version = spawnSync(pnpm, ['--version'], { cwd: root, encoding: 'utf8' });
    expect(version.stdout.trim() + version.stderr).toBe(other);
    const ladder = spawnSync(
      pnpm,
      [
        'ladder',
        '--model',
        'oxe-ganhei',
        '--rtp',
        '0.9',
        '--sampling',
        '1000000',
        '--prized',
        '0.3',
        '--bet',
        '2',
        '--currency',
        'BRL',
        '--json',
      ],
      { cwd: root, encoding: 'utf8' },
    );
    expect(ladder.status, ladder.stderr).toBe(0);
    expect(JSON.parse(ladder.stdout.slice(ladder.stdout.indexOf('{'))).totalAmount).toBe(2_000_000);
  }, 120_000);
});
