import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../config.ts';
import { AUDIT_KEY_FILE, loadAuditSigningKey } from './signing-key.ts';

describe('the audit signing key', () => {
  it('is generated once into the data folder, readable by its owner only, and the same at the next start', () => {
    const dir = mkdtempSync(join(tmpdir(), 'raspa-audit-key-'));
    const first = loadAuditSigningKey(dir, undefined);
    const file = join(dir, AUDIT_KEY_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadAuditSigningKey(dir, undefined).keyId).toBe(first.keyId);
    // AUDIT_SIGNING_KEY wins over the file, and is the same key as the seed it holds.
    const seed = readFileSync(file, 'utf8').trim();
    expect(loadAuditSigningKey(mkdtempSync(join(tmpdir(), 'raspa-audit-key-')), seed).publicKey).toBe(
      first.publicKey,
    );
  });

  it('refuses a malformed AUDIT_SIGNING_KEY at start without repeating it', () => {
    const secret = 'not-a-key-but-a-secret-value';
    const configured = readConfig({ AUDIT_SIGNING_KEY: secret, DATA_DIR: tmpdir() });
    expect(configured.ok).toBe(false);
    const errors = configured.ok ? [] : configured.errors;
    expect(errors.join('\n')).toMatch(/AUDIT_SIGNING_KEY/);
    expect(errors.join('\n')).not.toContain(secret);
  });
});
