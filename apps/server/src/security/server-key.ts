import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The file in DATA_DIR that keeps a generated server key. */
export const SERVER_KEY_FILE = 'secret.key';

/**
 * The server key (seals wallet and webhook tokens, derives signature tokens): SECRET_KEY if set,
 * else one generated on first start and kept beside the database, readable by its owner only.
 */
export function loadServerKey(dataDir: string, configured: string | undefined): Buffer {
  if (configured) return Buffer.from(configured, 'hex');
  const file = join(dataDir, SERVER_KEY_FILE);
  if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, `${key.toString('hex')}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return key;
}
