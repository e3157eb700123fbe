import { generateKeyPairSync } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AnchorSigningKey, seedOf, signingKeyFromSeed, signingKeyOf } from '@raspa/core/audit';

export const AUDIT_KEY_FILE = 'audit-signing.key';

/**
 * The key that signs anchors: AUDIT_SIGNING_KEY (base64 of a 32-byte Ed25519 seed; config.ts has
 * refused a malformed one) if set, else one generated on the first start and kept in the data
 * folder, readable by its owner only. The key is never logged; its id and public key may be.
 */
export function loadAuditSigningKey(dataDir: string, configured: string | undefined): AnchorSigningKey {
  if (configured) return mustParse(configured, 'AUDIT_SIGNING_KEY');
  const file = join(dataDir, AUDIT_KEY_FILE);
  if (existsSync(file)) return mustParse(readFileSync(file, 'utf8'), file);
  mkdirSync(dataDir, { recursive: true });
  const key = signingKeyOf(generateKeyPairSync('ed25519').privateKey);
  writeFileSync(file, `${seedOf(key)}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return key;
}

function mustParse(seed: string, source: string): AnchorSigningKey {
  const key = signingKeyFromSeed(seed);
  if (!key) throw new Error(`${source} is not a base64 Ed25519 seed of 32 bytes`);
  return key;
}
