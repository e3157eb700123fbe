#!/usr/bin/env node
// Lets the README's two commands work on a machine that has only Node and npm:
// find pnpm (or install the pinned version under .tools/ with npm), install the
// workspace, then run one of the root package's pnpm scripts.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [script, ...args] = process.argv.slice(2);
if (!script) {
  console.error('usage: run-with-pnpm.mjs <script> [args...]');
  process.exit(2);
}

const pinned = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager; // "pnpm@x.y.z"
const pinnedVersion = pinned.split('@')[1];

function run(command, commandArgs, options = {}) {
  const result = spawnSync(command, commandArgs, { cwd: root, stdio: 'inherit', ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function findPnpm() {
  const onPath = spawnSync('pnpm', ['--version'], { encoding: 'utf8' });
  if (onPath.status === 0 && onPath.stdout.trim().split('.')[0] === pinnedVersion.split('.')[0])
    return 'pnpm';
  const local = join(root, '.tools', 'node_modules', '.bin', 'pnpm');
  if (!existsSync(local)) {
    console.log(`[raspa] pnpm ${pinnedVersion} not found; installing it under .tools/ with npm…`);
    const status = run('npm', [
      'install',
      '--prefix',
      join(root, '.tools'),
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      `pnpm@${pinnedVersion}`,
    ]);
    if (status !== 0) process.exit(status);
  }
  return local;
}

const pnpm = findPnpm();
console.log('[raspa] installing the workspace (pnpm install)…');
const installArgs = ['install', '--prefer-offline'];
if (process.env.CI) installArgs.push('--frozen-lockfile');
const installed = run(pnpm, installArgs);
if (installed !== 0) process.exit(installed);

// The scripts call pnpm themselves, so put the one we found first on PATH.
const env = { ...process.env, PATH: `${dirname(pnpm === 'pnpm' ? '' : pnpm)}:${process.env.PATH}` };
if (pnpm === 'pnpm') env.PATH = process.env.PATH;
process.exit(run(pnpm, ['run', script, ...args], { env }));
