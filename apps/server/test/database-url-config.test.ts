// no-store: reading DATABASE_URL and DATA_DIR from the configuration
import { describe, expect, it } from 'vitest';
import { readConfig } from '../src/config.ts';

/** DATABASE_URL selects PostgreSQL (docs/store.md); unset, the SQLite file in DATA_DIR. */
describe('DATABASE_URL', () => {
  const read = (env: Record<string, string>) => readConfig({ DATA_DIR: '/tmp/raspa-config-test', ...env });

  it('is unset by default: the service keeps its data in the SQLite file', () => {
    const configured = read({});
    expect(configured.ok && configured.config.DATABASE_URL).toBeUndefined();
  });

  it('takes a postgres:// or postgresql:// URL', () => {
    for (const url of [
      'postgres://raspa:secret@db.internal:5432/raspa',
      'postgresql://raspa@127.0.0.1/raspa',
    ]) {
      const configured = read({ DATABASE_URL: url });
      expect(configured.ok && configured.config.DATABASE_URL).toBe(url);
    }
  });

  it('refuses anything else, naming the setting', () => {
    for (const url of ['mysql://raspa@db/raspa', 'not a url', '']) {
      const configured = read({ DATABASE_URL: url });
      expect(configured.ok).toBe(false);
      if (!configured.ok) expect(configured.errors.join('\n')).toContain('DATABASE_URL');
    }
  });
});
