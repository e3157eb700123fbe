import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDatabaseHosts } from './database-hosts.ts';

describe('parseDatabaseHosts', () => {
  it('leaves a URL of one server exactly as given', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('postgres', 'postgresql'),
        fc.constantFrom('', 'raspa@', 'raspa:s%40cret@'),
        fc.constantFrom('db.internal', '127.0.0.1', '[::1]', 'localhost:6543'),
        fc.constantFrom('/raspa', '/raspa?sslmode=require', '/postgres?host=%2Ftmp%2Fpg'),
        (scheme, user, host, tail) => {
          const url = `${scheme}://${user}${host}${tail}`;
          const hosts = parseDatabaseHosts(url);
          expect(hosts).toMatchObject({ urls: [url], sessionAttrs: 'any' });
        },
      ),
    );
  });

  it("splits libpq's list of servers into one URL each, in order, without target_session_attrs", () => {
    expect(
      parseDatabaseHosts(
        'postgres://raspa:pw@db1:5432,db2,[::1]:5433/raspa?sslmode=disable&target_session_attrs=read-write',
      ),
    ).toEqual({
      urls: [
        'postgres://raspa:pw@db1:5432/raspa?sslmode=disable',
        'postgres://raspa:pw@db2/raspa?sslmode=disable',
        'postgres://raspa:pw@[::1]:5433/raspa?sslmode=disable',
      ],
      servers: [
        { host: 'db1', port: 5432 },
        { host: 'db2', port: 5432 },
        { host: '::1', port: 5433 },
      ],
      sessionAttrs: 'read-write',
    });
  });

  it('reads primary as read-write and any as any, on one server too', () => {
    expect(parseDatabaseHosts('postgres://db1/raspa?target_session_attrs=primary')).toMatchObject({
      urls: ['postgres://db1/raspa'],
      sessionAttrs: 'read-write',
    });
    expect(parseDatabaseHosts('postgres://db1/raspa?target_session_attrs=any')).toMatchObject({
      urls: ['postgres://db1/raspa'],
      sessionAttrs: 'any',
    });
    expect(parseDatabaseHosts('postgres://db1,db2/raspa')).toMatchObject({ sessionAttrs: 'any' });
  });

  it('refuses what it cannot use, saying why', () => {
    for (const [url, reason] of [
      ['mysql://db/raspa', 'postgres://'],
      ['not a url', 'postgres://'],
      ['', 'postgres://'],
      ['postgres://db1,db2/raspa?target_session_attrs=standby', 'target_session_attrs'],
      ['postgres://db1,,db2/raspa', 'empty host'],
      ['postgres://db1:99999,db2/raspa', 'db1:99999'],
      ['postgres://db1:x,db2/raspa', 'URL'],
    ] as const) {
      const hosts = parseDatabaseHosts(url);
      expect('error' in hosts && hosts.error).toContain(reason);
    }
  });
});
