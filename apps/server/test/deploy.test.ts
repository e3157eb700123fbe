// no-store: the deployment files of deploy/ against the tools that read them and the configuration schema
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { renderEnvironmentReference } from '../src/cli/environment-reference.ts';
import { durationSeconds, envSchema, SETTING_DEFAULTS, STOP_EXIT_GRACE_SECONDS } from '../src/config.ts';

/**
 * deploy/ (issue 36): what can be checked here without starting containers or a systemd. The
 * environment reference is the one the schema renders; HAProxy accepts its configuration;
 * systemd-analyze accepts the unit (when installed: the test's name says when it is not); the
 * Compose file has the services docs/operating.md describes, and its settings are the service's.
 */
const deploy = (name: string) => fileURLToPath(new URL(`../../../deploy/${name}`, import.meta.url));
const HAPROXY = process.env.HAPROXY_PATH ?? '/usr/sbin/haproxy';
const SYSTEMD_ANALYZE = ['/usr/bin/systemd-analyze', '/bin/systemd-analyze'].find(existsSync);
/** The longest a stop may take: the primary of several WORKERS (main.ts). */
const LONGEST_STOP = SETTING_DEFAULTS.STOP_TIMEOUT + 2 * STOP_EXIT_GRACE_SECONDS;

describe('deploy/', () => {
  it('environment.md lists every variable of the configuration schema, as rendered from it', () => {
    const written = readFileSync(deploy('environment.md'), 'utf8');
    expect(written, 'deploy/environment.md is stale: run pnpm env-reference').toBe(
      renderEnvironmentReference(),
    );
    for (const name of Object.keys(envSchema.shape)) expect(written).toContain(`| \`${name}\` |`);
  });

  it('haproxy -c accepts haproxy.cfg with two instances and with three', () => {
    const base = {
      RASPA_LB_BIND: '127.0.0.1:8080',
      RASPA_INSTANCE_1: 'raspa1:8080',
      RASPA_INSTANCE_2: '127.0.0.1:8082',
    };
    for (const env of [base, { ...base, RASPA_INSTANCE_3: '127.0.0.1:8083' }]) {
      const checked = spawnSync(HAPROXY, ['-c', '-f', deploy('haproxy.cfg')], { env, encoding: 'utf8' });
      expect(checked.error, `${HAPROXY} (scripts/ensure-test-tools.mjs installs it)`).toBeUndefined();
      expect(checked.status, checked.stderr).toBe(0);
      expect(checked.stdout).toContain('Configuration file is valid');
    }
  });

  // Not installed, the test's name says so in the summary (skipped), rather than passing unseen.
  it.skipIf(!SYSTEMD_ANALYZE)(
    SYSTEMD_ANALYZE
      ? 'systemd-analyze verify accepts raspa.service, without a warning'
      : 'systemd-analyze verify on raspa.service: SKIPPED, systemd-analyze is not installed here',
    () => {
      const checked = spawnSync(SYSTEMD_ANALYZE as string, ['verify', deploy('raspa.service')], {
        encoding: 'utf8',
      });
      expect(checked.status, checked.stderr).toBe(0);
      expect(checked.stderr.split('\n').filter((line) => line.includes('raspa.service'))).toEqual([]);
    },
  );

  it('raspa.service is hardened, restarts on failure and waits out a stop', () => {
    const unit = readFileSync(deploy('raspa.service'), 'utf8');
    for (const line of [
      'User=raspa',
      'NoNewPrivileges=yes',
      'ProtectSystem=strict',
      'Restart=on-failure',
      'KillSignal=SIGTERM',
    ])
      expect(unit).toContain(`\n${line}\n`);
    const stopSeconds = Number(/\nTimeoutStopSec=(\d+)\n/.exec(unit)?.[1]);
    expect(stopSeconds).toBeGreaterThan(LONGEST_STOP);
  });

  it("compose.yaml runs PostgreSQL, two instances and HAProxy on haproxy.cfg, with the service's settings", () => {
    const compose = parse(readFileSync(deploy('compose.yaml'), 'utf8'), { merge: true });
    const services = compose.services as Record<string, any>;
    expect(Object.keys(services).sort()).toEqual(['haproxy', 'postgres', 'raspa1', 'raspa2']);
    for (const [name, service] of Object.entries(services)) {
      expect(typeof service.image, `${name}.image`).toBe('string');
      for (const needed of Object.keys(service.depends_on ?? {}))
        expect(Object.keys(services)).toContain(needed);
    }
    const schemaKeys = Object.keys(envSchema.shape);
    for (const name of ['raspa1', 'raspa2']) {
      const instance = services[name];
      for (const key of Object.keys(instance.environment))
        expect(schemaKeys, `${name}: ${key}`).toContain(key);
      expect(instance.environment.DATABASE_URL).toContain('@postgres:5432/');
      expect(instance.healthcheck.test.join(' ')).toContain('/ready');
      expect(durationSeconds(instance.stop_grace_period)).toBeGreaterThan(LONGEST_STOP);
      expect(instance.build.dockerfile).toBe('deploy/Dockerfile');
      expect(existsSync(deploy('Dockerfile'))).toBe(true);
    }
    const haproxy = services.haproxy;
    expect(haproxy.volumes).toContain('./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro');
    expect([haproxy.environment.RASPA_INSTANCE_1, haproxy.environment.RASPA_INSTANCE_2]).toEqual([
      'raspa1:8080',
      'raspa2:8080',
    ]);
    // Every setting the file demands is in the example an operator copies.
    const example = readFileSync(deploy('compose.env.example'), 'utf8');
    const demanded = [...readFileSync(deploy('compose.yaml'), 'utf8').matchAll(/\$\{(\w+):\?/g)].map(
      (m) => m[1],
    );
    for (const name of new Set(demanded)) expect(example).toMatch(new RegExp(`^${name}=`, 'm'));
  });
});
