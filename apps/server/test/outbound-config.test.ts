// no-store: the outbound settings read from the configuration
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../src/config.ts';
import {
  decidePrivateOutbound,
  listensOnLoopbackOnly,
  privateOutboundNotice,
} from '../src/outbound/private-outbound-default.ts';
import { buildDeps } from '../src/server.ts';
import { testDns } from './harness.ts';

/** OUTBOUND_ALLOW_PRIVATE and its old name ALLOW_PRIVATE_WEBHOOKS (configuration only, no server). */
const allowed = (env: Record<string, string>, start: { localStart?: boolean } = {}) => {
  const configured = readConfig({ DATA_DIR: '/tmp/raspa-config-test', ...env }, start);
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

const LOOPBACK_HOSTS = [
  '127.0.0.1',
  '127.0.0.2',
  '127.255.255.254',
  '::1',
  '[::1]',
  '::ffff:127.0.0.1',
  'localhost',
  'LOCALHOST',
  'localhost.',
];
const EXPOSED_HOSTS = [
  '0.0.0.0',
  '::',
  '192.168.1.10',
  '10.0.0.5',
  '203.0.113.7',
  'fe80::1',
  '2001:db8::1',
  'example.com',
  'my-host',
  'localhost.example.com',
  '127.0.0.1.nip.io',
];

describe('the private-outbound default: allowed only for the local start while it listens on loopback (issue 22)', () => {
  it.each(LOOPBACK_HOSTS)('%s is loopback only', (host) => {
    expect(listensOnLoopbackOnly(host)).toBe(true);
  });

  it.each(EXPOSED_HOSTS)('%s may be reachable from other machines', (host) => {
    expect(listensOnLoopbackOnly(host)).toBe(false);
  });

  it('follows the environment when it sets the variable, whatever the host or start', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...LOOPBACK_HOSTS, ...EXPOSED_HOSTS),
        fc.boolean(),
        fc.boolean(),
        (host, setting, localStart) => {
          expect(decidePrivateOutbound({ host, setting, localStart })).toEqual({
            allow: setting,
            because: 'environment',
          });
        },
      ),
    );
  });

  it('unset: allows them for the local start on loopback only, and never for the production start', () => {
    fc.assert(
      fc.property(fc.constantFrom(...LOOPBACK_HOSTS, ...EXPOSED_HOSTS), fc.boolean(), (host, localStart) => {
        const decision = decidePrivateOutbound({ host, setting: undefined, localStart });
        expect(decision.allow).toBe(localStart && listensOnLoopbackOnly(host));
        if (!localStart) expect(decision.because).toBe('default');
      }),
    );
  });

  it.each([
    [{}, {}, false],
    [{}, { localStart: true }, true],
    [{ HOST: '127.0.0.1' }, { localStart: true }, true],
    [{ HOST: '::1' }, { localStart: true }, true],
    [{ HOST: '0.0.0.0' }, { localStart: true }, false],
    [{ HOST: '::' }, { localStart: true }, false],
    [{ HOST: '192.168.0.10' }, { localStart: true }, false],
    [{ HOST: '0.0.0.0', OUTBOUND_ALLOW_PRIVATE: 'true' }, { localStart: true }, true],
    [{ HOST: '0.0.0.0', ALLOW_PRIVATE_WEBHOOKS: 'true' }, { localStart: true }, true],
    [{ OUTBOUND_ALLOW_PRIVATE: 'false' }, { localStart: true }, false],
    [{ HOST: '0.0.0.0' }, {}, false],
  ])('readConfig(%o, %o) allows them: %s', (env, start, expected) => {
    expect(allowed(env, start)).toBe(expected);
  });

  it('says at start why: refused on an exposed local start, and how to allow them', () => {
    const notice = (env: Record<string, string>, localStart: boolean) => {
      const configured = readConfig({ DATA_DIR: '/tmp/raspa-config-test', ...env }, { localStart });
      if (!configured.ok) throw new Error(configured.errors.join('\n'));
      return privateOutboundNotice(configured.config.privateOutbound, configured.config.HOST);
    };
    expect(notice({ HOST: '0.0.0.0' }, true)).toEqual({
      level: 'warn',
      text: expect.stringMatching(
        /^HOST=0\.0\.0\.0 is reachable from other machines: .* refused; set OUTBOUND_ALLOW_PRIVATE=true to allow them/,
      ),
    });
    expect(notice({}, true)?.text).toMatch(/listening on 127\.0\.0\.1 only: .* may reach private addresses/);
    expect(notice({ OUTBOUND_ALLOW_PRIVATE: 'true' }, false)?.text).toMatch(/^OUTBOUND_ALLOW_PRIVATE=true: /);
    // The production start's safe default needs no line.
    expect(notice({ HOST: '0.0.0.0' }, false)).toBeUndefined();
    expect(notice({}, false)).toBeUndefined();
  });
});
