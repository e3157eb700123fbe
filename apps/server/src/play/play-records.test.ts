import { describe, expect, it } from 'vitest';
import { seedSeat } from '../../test/store-contract/fixtures.ts';
import { openSqliteStore } from '../store/sqlite/sqlite-store.ts';
import { createPlayRecords } from './play-records.ts';

/** A real store whose reads are counted, under a clock the test moves. */
async function setUp(options: { max?: number; profileTtlMs?: number } = {}) {
  const store = openSqliteStore(':memory:');
  const seat = await seedSeat(store);
  const reads = { sessions: 0, players: 0, games: 0, profiles: 0 };
  const counted = <K extends keyof typeof reads>(kind: K) => ({
    findById: (id: string) => {
      reads[kind]++;
      return (store[kind] as unknown as { findById(id: string): Promise<unknown> }).findById(id);
    },
  });
  let now = Date.parse('2026-03-01T12:00:00.000Z');
  const repos = {
    sessions: counted('sessions'),
    players: counted('players'),
    games: counted('games'),
    profiles: counted('profiles'),
  } as unknown as Parameters<typeof createPlayRecords>[0];
  const records = createPlayRecords(repos, () => new Date(now), options);
  return { store, seat, reads, records, advance: (ms: number) => (now += ms) };
}

describe('the play records cache', () => {
  it('reads a session, player and game once, then answers from memory', async () => {
    const { seat, reads, records } = await setUp();
    for (let i = 0; i < 3; i++) {
      expect(await records.session(seat.session.id)).toEqual(seat.session);
      expect(await records.player(seat.player.id)).toEqual(seat.player);
      expect(await records.game(seat.game.id)).toEqual(seat.game);
    }
    expect(reads).toMatchObject({ sessions: 1, players: 1, games: 1 });
  });

  it('keeps a profile only for its TTL, and forgets it at once when told it changed', async () => {
    const { store, seat, reads, records, advance } = await setUp({ profileTtlMs: 5_000 });
    await records.profile(seat.profile.id);
    advance(4_999);
    await records.profile(seat.profile.id);
    expect(reads.profiles).toBe(1);
    advance(1);
    await records.profile(seat.profile.id);
    expect(reads.profiles).toBe(2);

    const renamed = { ...seat.profile, name: 'Renamed' };
    await store.profiles.update(renamed);
    records.forgetProfile(seat.profile.id);
    expect(await records.profile(seat.profile.id)).toMatchObject({ name: 'Renamed' });
    expect(reads.profiles).toBe(3);
  });

  it('does not keep what it did not find, and keeps at most `max` of a kind', async () => {
    const { store, seat, reads, records } = await setUp({ max: 1 });
    expect(await records.session('no-such-session')).toBeUndefined();
    expect(await records.session('no-such-session')).toBeUndefined();
    expect(reads.sessions).toBe(2);
    const other = await seedSeat(store);
    await records.session(seat.session.id);
    await records.session(seat.session.id);
    expect(reads.sessions).toBe(3);
    await records.session(other.session.id); // the first is forgotten to make room
    await records.session(seat.session.id);
    expect(reads.sessions).toBe(5);
  });
});
