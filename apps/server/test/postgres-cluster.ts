/**
 * A throwaway PostgreSQL 15 cluster for the tests (issue 13): Debian's binaries, `initdb` as the
 * `postgres` user into a temporary folder, a free port on 127.0.0.1, its socket inside that folder,
 * fsync on (crash tests need it: pg_virtualenv would turn it off). Stopped and removed by `stop()`.
 * With TEST_DATABASE_URL or DATABASE_URL set, that server is used instead and nothing is started.
 */
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where PostgreSQL's binaries are (initdb, pg_ctl, pgbench…). */
export const BIN = process.env.POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';

export interface Cluster {
  /**
   * A URL of the cluster's `postgres` database, as its superuser: over its Unix socket when it
   * was started here (`?host=/dir`), which costs the client and the server far less per round
   * trip than loopback TCP (docs/benchmarks.md).
   */
  url: string;
  /** The same over TCP on 127.0.0.1 (the server a URL names is reached as given). */
  tcpUrl: string;
  /** Its data folder (postmaster.pid), when it was started here. */
  dataDir?: string;
  /**
   * Copies the data folder to `target` (which must not exist) with the server stopped for the copy,
   * then starts it again: a loaded database kept for later runs (`startCluster`'s `dataFrom`).
   */
  saveData(target: string): Promise<void>;
  stop(): Promise<void>;
}

function fail(reason: string): never {
  throw new Error(
    `[raspa] The PostgreSQL tests need PostgreSQL 15 in ${BIN}, and ${reason}.\n` +
      '        Install it (Debian: sudo apt-get install -y postgresql), point POSTGRES_BIN at its bin folder, ' +
      'or give TEST_DATABASE_URL=postgres://… of a server the tests may create databases on.',
  );
}

/** Installs Debian's postgresql when its binaries are missing and we may (root with apt-get). */
function ensureBinaries(): void {
  if (existsSync(join(BIN, 'initdb'))) return;
  if (process.getuid?.() !== 0) fail('it is not installed (installing it needs root)');
  if (!existsSync('/usr/bin/apt-get')) fail('it is not installed (and there is no apt-get here)');
  console.log('[raspa] PostgreSQL is missing: installing it with apt-get (for the PostgreSQL tests)…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', 'postgresql']]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (result.status !== 0)
      fail(`apt-get ${args[0]} failed (exit ${result.status ?? result.error?.message})`);
  }
  if (!existsSync(join(BIN, 'initdb'))) fail('apt-get installed postgresql but initdb is still missing');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

/** Runs a PostgreSQL binary as `postgres` (initdb refuses root) when we are root, else as ourselves. */
function run(binary: string, args: string[]): void {
  const asRoot = process.getuid?.() === 0;
  const command = asRoot ? 'runuser' : join(BIN, binary);
  const argv = asRoot ? ['-u', 'postgres', '--', join(BIN, binary), ...args] : args;
  const result = spawnSync(command, argv, { encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`${binary} ${args.join(' ')} failed: ${result.stderr || result.stdout || result.error}`);
  }
}

/** Copies a data folder with its owner and modes (PostgreSQL refuses a folder it does not own). */
function copyData(from: string, to: string): void {
  const result = spawnSync('cp', ['-a', from, to], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`cp -a ${from} ${to} failed: ${result.stderr || result.error}`);
}

/** A temporary folder the `postgres` user owns when we are root (its data folder goes inside). */
function clusterFolder(): { dir: string; data: string } {
  const dir = mkdtempSync(join(tmpdir(), 'raspa-pg-'));
  if (process.getuid?.() === 0) {
    const owner = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const group = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    chownSync(dir, Number(owner.stdout.trim()), Number(group.stdout.trim()));
  }
  return { dir, data: join(dir, 'data') };
}

/**
 * Starts a fresh cluster (with `settings`, each `name=value`, on top of the tests' own), or hands
 * back the server named by TEST_DATABASE_URL / DATABASE_URL. `dataFrom`: a data folder kept by
 * `saveData`, copied and started instead of a new `initdb` (the copy is thrown away as usual).
 * `unsynced`: `initdb --no-sync` and `fsync=off`, for a cluster no test relies on surviving a
 * crash (seconds less on a loaded machine).
 */
export async function startCluster(
  settings: readonly string[] = [],
  options: { dataFrom?: string; unsynced?: boolean } = {},
): Promise<Cluster> {
  const given = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (given) {
    const unsupported = async () => {
      throw new Error('saveData needs a cluster started here, not TEST_DATABASE_URL / DATABASE_URL');
    };
    return { url: given, tcpUrl: given, saveData: unsupported, stop: async () => {} };
  }
  return startOwnCluster(settings, options);
}

/** A cluster started here whatever TEST_DATABASE_URL says: a primary to kill (startStandby's). */
export async function startOwnCluster(
  settings: readonly string[] = [],
  options: { dataFrom?: string; unsynced?: boolean } = {},
): Promise<ReplicatedCluster> {
  ensureBinaries();
  const { dir, data } = clusterFolder();
  return serveCluster(dir, data, await freePort(), {
    settings: [...(options.unsynced ? ['fsync=off'] : []), ...settings],
    create: () => {
      if (options.dataFrom) copyData(options.dataFrom, data);
      else
        run('initdb', [
          ...['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-instructions'],
          ...(options.unsynced ? ['--no-sync'] : []),
        ]);
    },
  });
}

/** A cluster of our own that can be killed and promoted (a primary, or a streaming standby of one). */
export interface ReplicatedCluster extends Cluster {
  port: number;
  /** `pg_ctl stop -m immediate`: the server dies at once, as a machine that is lost. */
  kill(): void;
  /** `pg_ctl promote`: the standby ends recovery and takes writes (back once it does). */
  promote(): void;
}

/**
 * A streaming standby of `primary` (a cluster started here): `pg_basebackup -R` over TCP with
 * `application_name` set, so `synchronous_standby_names` on the primary can name it.
 */
export async function startStandby(primary: Cluster, applicationName: string): Promise<ReplicatedCluster> {
  ensureBinaries();
  const { dir, data } = clusterFolder();
  const primaryPort = new URL(primary.tcpUrl).port;
  return serveCluster(dir, data, await freePort(), {
    settings: [],
    create: () =>
      run('pg_basebackup', [
        ...['-D', data, '-R', '-X', 'stream', '-c', 'fast', '--no-sync'],
        ...['-d', `host=127.0.0.1 port=${primaryPort} user=postgres application_name=${applicationName}`],
      ]),
  });
}

/**
 * Creates the data folder in `dir` (`create`) and starts a server on it at `port`, listening on
 * 127.0.0.1 and on a socket in `dir`; the folder is removed when it stops, or when the process exits.
 */
function serveCluster(
  dir: string,
  data: string,
  port: number,
  setUp: { settings: readonly string[]; create: () => void },
): ReplicatedCluster {
  const remove = () => rmSync(dir, { recursive: true, force: true });
  const serverOptions = [
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=on -c synchronous_commit=on -c max_connections=300`,
    ...setUp.settings.map((setting) => `-c ${setting}`),
  ].join(' ');
  const start = () =>
    run('pg_ctl', ['-D', data, '-o', serverOptions, '-l', join(dir, 'server.log'), '-w', 'start']);
  try {
    setUp.create();
    start();
  } catch (error) {
    remove();
    throw error;
  }
  let running = true;
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    process.off('exit', stop);
    try {
      if (running) run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    } finally {
      remove();
    }
  };
  // Also when the test run ends without its teardown (an interrupted run): nothing is left behind.
  process.on('exit', stop);
  return {
    url: `postgres://postgres@localhost:${port}/postgres?host=${encodeURIComponent(dir)}`,
    tcpUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dataDir: data,
    saveData: async (target) => {
      run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      try {
        copyData(data, target);
      } finally {
        start();
      }
    },
    kill: () => {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      running = false;
    },
    promote: () => run('pg_ctl', ['-D', data, '-w', 'promote']),
    stop: async () => stop(),
  };
}
