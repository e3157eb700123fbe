import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The instances of one installation on one PostgreSQL database, as docs/operating.md's "Several
 * instances" asks: each the same DATABASE_URL and SECRET_KEY (operators' tokens and the pools'
 * seeds are sealed with it), one process (WORKERS=1), a DATA_DIR of its own.
 */
export function createInstallation(databaseUrl: string, shared: Record<string, string> = {}) {
  const secretKey = randomBytes(32).toString('hex');
  const dataDirs: string[] = [];
  return {
    secretKey,
    /** A new instance's environment: the installation's, `shared`, then `extra`. */
    env(extra: Record<string, string> = {}): Record<string, string> {
      const dataDir = mkdtempSync(join(tmpdir(), 'raspa-instance-'));
      dataDirs.push(dataDir);
      return {
        WORKERS: '1',
        DATABASE_URL: databaseUrl,
        SECRET_KEY: secretKey,
        DATA_DIR: dataDir,
        ...shared,
        ...extra,
      };
    },
    /** The first instance's folder, for a tool run beside the instances (verify-pool). */
    firstDataDir: () => dataDirs[0] ?? '',
    removeFolders(): void {
      for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}
