#!/usr/bin/env node
// Before the browser tests: they drive Debian's Chromium (/usr/bin/chromium, or CHROMIUM_PATH).
// On a fresh CI machine (root, with apt) this installs it; anywhere else it says what to do.
// It never skips the tests quietly: no browser is a failure.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (existsSync(path)) process.exit(0);

function fail(reason) {
  console.error(
    `[raspa] The browser tests need Chromium at ${path}, and ${reason}.\n` +
      '        Install it (Debian/Ubuntu: sudo apt-get install -y chromium) or point CHROMIUM_PATH at a Chromium.',
  );
  process.exit(1);
}

if (process.env.CHROMIUM_PATH) fail('CHROMIUM_PATH names no file');
if (process.getuid?.() !== 0) fail('it is not installed (installing it needs root)');
if (!existsSync('/usr/bin/apt-get')) fail('it is not installed (and there is no apt-get here to install it)');

console.log('[raspa] Chromium is missing: installing it with apt-get (for the browser tests)…');
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
for (const args of [
  ['update'],
  // Recommends included: the same install the browser tests were developed and checked with.
  ['install', '-y', 'chromium', 'fonts-dejavu-core', 'fonts-liberation'],
]) {
  const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
  if (result.status !== 0) fail(`apt-get ${args[0]} failed (exit ${result.status ?? result.error?.message})`);
}
if (!existsSync(path)) fail('apt-get installed the package but the file is still missing');
console.log(`[raspa] Chromium installed at ${path}.`);
