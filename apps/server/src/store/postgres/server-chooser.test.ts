import { describe, expect, it } from 'vitest';
import { parseDatabaseHosts } from './database-hosts.ts';
import { createServerChooser } from './server-chooser.ts';

const hosts = parseDatabaseHosts('postgres://u@db1:5432,db2:5433/raspa?target_session_attrs=read-write');
if ('error' in hosts) throw new Error(hosts.error);
const [first, second] = hosts.urls as [string, string];

/** A probe over servers whose state the test sets: up and writable, up and read-only, or down. */
function servers(state: Record<string, 'writes' | 'read-only' | 'down'>) {
  const probes: string[] = [];
  const qualifies = async (url: string) => {
    probes.push(url);
    if (state[url] === 'down') throw new Error('connection refused');
    return state[url] === 'writes';
  };
  return {
    probes,
    chooser: createServerChooser(hosts as Exclude<typeof hosts, { error: string }>, qualifies),
  };
}

describe('createServerChooser', () => {
  it('keeps the first server that takes writes, and probes no more while it lasts', async () => {
    const { probes, chooser } = servers({ [first]: 'read-only', [second]: 'writes' });
    expect(await chooser.choose()).toMatchObject({ host: 'db2', port: 5433 });
    expect(await chooser.choose()).toMatchObject({ host: 'db2' });
    expect(probes).toEqual([first, second]);
  });

  it('searches again in order once the kept one is forgotten (a failover)', async () => {
    const state: Record<string, 'writes' | 'read-only' | 'down'> = {
      [first]: 'writes',
      [second]: 'read-only',
    };
    const { chooser } = servers(state);
    expect((await chooser.choose()).host).toBe('db1');
    state[first] = 'down';
    state[second] = 'writes';
    chooser.forget(second); // another server's failure leaves the kept one
    expect((await chooser.choose()).host).toBe('db1');
    chooser.forget(first);
    expect((await chooser.choose()).host).toBe('db2');
  });

  it('fails, naming each server and why, while none takes writes, then finds the promoted one', async () => {
    const state: Record<string, 'writes' | 'read-only' | 'down'> = { [first]: 'down', [second]: 'read-only' };
    const { chooser } = servers(state);
    await expect(chooser.choose()).rejects.toThrow(/db1:5432: connection refused; db2:5433 takes no writes/);
    state[second] = 'writes';
    expect((await chooser.choose()).host).toBe('db2');
  });

  it('shares one search among the connections that ask at once', async () => {
    const { probes, chooser } = servers({ [first]: 'down', [second]: 'writes' });
    const chosen = await Promise.all(Array.from({ length: 10 }, () => chooser.choose()));
    expect(new Set(chosen.map((server) => server.host))).toEqual(new Set(['db2']));
    expect(probes).toEqual([first, second]);
  });
});
