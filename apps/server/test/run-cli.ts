import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The server package's folder, where its command-line tools run from. */
export const SERVER_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
const TSX = join(SERVER_DIR, 'node_modules', '.bin', 'tsx');

/**
 * A bound against a hang for tests that run several tools: each run loads the sources through tsx,
 * a second or two on a quiet machine and half a minute at a load of 40 (a shake run of
 * audit-anchors' four runs passed 120 s there). The tests wait for the exits, not for a time.
 */
export const CLI_TESTS_HANG_BOUND = { timeout: 600_000 };

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command-line tool of src/cli (`verify-pool`, `wallet-check`, ...) as a real child process,
 * as `pnpm <tool>` would, and resolves when it exits with what it printed.
 */
export function runCli(tool: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, [join(SERVER_DIR, 'src', 'cli', `${tool}.ts`), ...args], {
      cwd: SERVER_DIR,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
