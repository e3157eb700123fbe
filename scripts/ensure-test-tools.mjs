#!/usr/bin/env node
// Before the tests: the system programs they drive, all from Debian's packages. Chromium for the
// browser tests, PostgreSQL 15 for the store on a server database, HAProxy for the tests behind a
// real load balancer. On a fresh CI machine (root, with apt) the missing ones are installed in one
// apt-get run; anywhere else it says what to do. It never lets the tests skip quietly: a missing
// program is a failure.
//   node scripts/ensure-test-tools.mjs [chromium] [postgresql] [haproxy]   (none named: all)
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const TOOLS = {
  chromium: {
    path: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    // Recommends included: the same install the browser tests were developed and checked with.
    packages: ['chromium', 'fonts-dejavu-core', 'fonts-liberation'],
    override: 'CHROMIUM_PATH',
  },
  postgresql: {
    path: `${process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin'}/initdb`,
    packages: ['postgresql'],
    override: 'PG_BIN',
    // A server of one's own needs no local binaries.
    needed: () => !process.env.TEST_DATABASE_URL,
  },
  haproxy: {
    path: process.env.HAPROXY_PATH ?? '/usr/sbin/haproxy',
    packages: ['haproxy'],
    override: 'HAPROXY_PATH',
  },
};

const asked = process.argv.slice(2);
for (const name of asked)
  if (!(name in TOOLS)) fail(`unknown tool "${name}" (known: ${Object.keys(TOOLS).join(', ')})`);
const missing = (asked.length > 0 ? asked : Object.keys(TOOLS))
  .map((name) => ({ name, ...TOOLS[name] }))
  .filter((tool) => (tool.needed?.() ?? true) && !existsSync(tool.path));
if (missing.length === 0) process.exit(0);

function fail(reason) {
  console.error(`[raspa] The tests need system programs: ${reason}.`);
  process.exit(1);
}

const names = missing.map((tool) => tool.name).join(', ');
const packages = missing.flatMap((tool) => tool.packages);
const how = `install them (Debian/Ubuntu: sudo apt-get install -y ${packages.join(' ')}) or set ${missing
  .map((tool) => tool.override)
  .join(' / ')}`;
for (const tool of missing)
  if (process.env[tool.override]) fail(`${tool.override} names no program (${tool.path})`);
if (process.getuid?.() !== 0) fail(`${names} not installed, and installing needs root; ${how}`);
if (!existsSync('/usr/bin/apt-get')) fail(`${names} not installed, and there is no apt-get here; ${how}`);

console.log(`[raspa] Installing ${names} with apt-get (for the tests)…`);
// The tests start servers of their own on free ports: whatever the packages start is left alone.
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
for (const args of [['update'], ['install', '-y', '--no-install-suggests', ...packages]]) {
  const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
  if (result.status !== 0) fail(`apt-get ${args[0]} failed (exit ${result.status ?? result.error?.message})`);
}
const still = missing.filter((tool) => !existsSync(tool.path));
if (still.length > 0) fail(`apt-get ran but ${still.map((tool) => tool.path).join(', ')} is still missing`);
console.log(`[raspa] Installed ${names}.`);
