import { describe, expect, it } from 'vitest';
import { readConfig } from '../src/config.ts';
import { buildDeps } from '../src/server.ts';
import { testDns } from './harness.ts';

/** OUTBOUND_ALLOW_PRIVATE and its old name ALLOW_PRIVATE_WEBHOOKS (configuration only, no server). */
const allowed = (env: Record<string, string>) => {
  const configured = readConfig({ DATA_DIR: '/tmp/raspa-config-test', ...env });
  if (!configured.ok) throw new Error(configured.errors.join('\n'));
  return configured.config.OUTBOUND_ALLOW_PRIVATE;
};

describe('OUTBOUND_ALLOW_PRIVATE', () => {
  it('is off by default', () => {
    expect(allowed({})).toBe(false);
  });

  it.each([
    [{ OUTBOUND_ALLOW_PRIVATE: 'true' }, true],
    [{ OUTBOUND_ALLOW_PRIVATE: '1' }, true],
    [{ OUTBOUND_ALLOW_PRIVATE: 'false' }, false],
    [{ ALLOW_PRIVATE_WEBHOOKS: 'true' }, true],
    [{ ALLOW_PRIVATE_WEBHOOKS: 'false' }, false],
    [{ OUTBOUND_ALLOW_PRIVATE: 'false', ALLOW_PRIVATE_WEBHOOKS: 'true' }, false],
    [{ OUTBOUND_ALLOW_PRIVATE: 'true', ALLOW_PRIVATE_WEBHOOKS: 'false' }, true],
  ])('%o gives %s (the old name is read; the new one wins)', (env, expected) => {
    expect(allowed(env)).toBe(expected);
  });

  it('refuses a value that is not a flag, naming the variable', () => {
    expect(readConfig({ OUTBOUND_ALLOW_PRIVATE: 'yes' })).toEqual({
      ok: false,
      errors: [expect.stringMatching(/^OUTBOUND_ALLOW_PRIVATE: /)],
    });
  });

  it('becomes the allowPrivateOutbound setting', () => {
    const configured = readConfig({ DATA_DIR: '/tmp/raspa-config-test', OUTBOUND_ALLOW_PRIVATE: 'true' });
    if (!configured.ok) throw new Error(configured.errors.join('\n'));
    // Every edge is overridden, so nothing is opened or written.
    const deps = buildDeps(configured.config, {
      store: {} as never,
      secrets: {} as never,
      mailer: {} as never,
      resolveHost: testDns,
    });
    expect(deps.settings.allowPrivateOutbound).toBe(true);
  });
});
