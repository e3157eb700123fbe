import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { argon2idHasher } from '../src/security/passwords.ts';
import { digest } from '../src/security/secrets.ts';
import { openConfiguredStore } from '../src/store/open-store.ts';
import { createTestDatabase, type TestDatabase } from './postgres-database.ts';

const SERVER_DIR = fileURLToPath(new URL('..', import.meta.url));
const TSX = join(SERVER_DIR, 'node_modules/.bin/tsx');
const ADMIN = join(SERVER_DIR, 'src/cli/admin.ts');
const dataDir = mkdtempSync(join(tmpdir(), 'raspa-admin-'));
/** The server-postgres project: the command runs on a database of its own (DATABASE_URL), as an installation on PostgreSQL does. */
let database: TestDatabase | undefined;
beforeAll(async () => {
  if (process.env.RASPA_TEST_STORE === 'postgres') database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Runs `pnpm admin …` as the real command would: a child process over DATA_DIR, from a bare directory. */
function admin(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      TSX,
      [ADMIN, ...args],
      {
        cwd: dataDir,
        env: {
          PATH: process.env.PATH,
          DATA_DIR: dataDir,
          LOG_LEVEL: 'silent',
          ...(database && { DATABASE_URL: database.url }),
        },
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

async function readClient(email: string) {
  const store = openConfiguredStore({ DATA_DIR: dataDir, DATABASE_URL: database?.url });
  try {
    await (store as { ready?: Promise<void> }).ready;
    return await store.clients.findClientByEmail(email);
  } finally {
    await store.close();
  }
}

const printed = (stdout: string, label: string) => new RegExp(`${label}:\\s+(\\S+)`).exec(stdout)?.[1] ?? '';

describe('pnpm admin', () => {
  it('help prints the usage and exits 0', async () => {
    const run = await admin('help');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toContain('Usage: pnpm admin <command> [options]');
    expect(run.stdout).toContain('create-client --name <name> --email <email> [--password <password>]');
  });

  it('create-client stores the client, prints its apiKey once and the password it was given', async () => {
    const run = await admin(
      'create-client',
      '--name',
      'Casa Lotérica',
      '--email',
      'casa@example.test',
      '--password',
      'a panel secret',
    );
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const apiKey = printed(run.stdout, 'apiKey');
    expect(apiKey).toMatch(/^rsp_[\w-]{43}$/);
    expect(run.stdout).toContain('panel password:  a panel secret\n');
    const client = await readClient('casa@example.test');
    expect(client).toMatchObject({
      name: 'Casa Lotérica',
      email: 'casa@example.test',
      apiKeyHash: digest(apiKey),
    });
    expect(await argon2idHasher.verify(client?.passwordHash ?? '', 'a panel secret')).toBe(true);
  });

  it('generates a panel password when none is given', async () => {
    const run = await admin('create-client', '--name', 'Bingo Bar', '--email', 'bingo@example.test');
    expect(run.code).toBe(0);
    const password = printed(run.stdout, 'panel password');
    expect(password.length).toBeGreaterThanOrEqual(8);
    expect(run.stdout).toContain(`${password} (generated)`);
    const client = await readClient('bingo@example.test');
    expect(await argon2idHasher.verify(client?.passwordHash ?? '', password)).toBe(true);
  });

  it('refuses an e-mail that already has a client (in any case) with exit 1', async () => {
    const run = await admin('create-client', '--name', 'Copy', '--email', 'CASA@example.test');
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: an API client with e-mail CASA@example.test already exists\n',
    });
  });

  it('answers bad arguments with every problem, the usage and exit 2', async () => {
    const run = await admin('create-client', '--name', ' ', '--email', 'nope', '--password', 'short');
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      /^error: --name: must not be empty\n--email: must be an e-mail address\n--password: must be at least 8 characters\n\nUsage: pnpm admin/,
    );
  });
});
