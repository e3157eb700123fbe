import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAnsweredAsUnknown } from './as-unknown.ts';
import { type DatabaseSnapshots, databaseSnapshots } from './database-snapshot.ts';
import { LOCAL_INTEGRATION, startTestServer, type TestServer } from './harness.ts';
import { eventually, type GameSetup, seatPlayer, setUpOperatorGame } from './play-fixtures.ts';
import { startTestOperator, type TestOperator } from './test-operator.ts';

/**
 * Test profiles and forced cards (docs/certification.md, issue 38): a test session's next cards are
 * the levels queued for it, drawn from no pool, paid through its wallet with `test: true`; its
 * rounds say `test: true` and stay out of the report; a real profile's session refuses forcing
 * with nothing changed; a profile never changes to or from test.
 */

let server: TestServer;
let operator: TestOperator;
/** The test profile's wallet (and a second webhook of the same client). */
let lab: TestOperator;
let real: GameSetup;
let test: GameSetup;
let snapshots: DatabaseSnapshots;
/** The test game's ladder: [level, prize in major units]. */
let levels: Array<{ level: number; prize: number; winners: number }>;

const SNAPSHOT_SKIP = new Set([
  'rate_limit_counters',
  'schema_migrations',
  'ledger_day_counts',
  'ledger_count_folds',
]);

beforeAll(async () => {
  operator = await startTestOperator();
  lab = await startTestOperator();
  server = await startTestServer({ env: LOCAL_INTEGRATION, play: { tickMs: 60_000 } });
  real = await setUpOperatorGame(server, operator);
  test = await setUpOperatorGame(server, lab, { profileType: 'test' }, real.tokens);
  const game = await server.call('GET', `/v1/game?profileId=${test.profileId}`, { token: test.tokens });
  levels = game.body.data[0].levels;
  snapshots = await databaseSnapshots(server, SNAPSHOT_SKIP);
});
afterAll(async () => {
  await snapshots?.close();
  await server?.close();
  await operator?.close();
  await lab?.close();
});

const play = () => server.running.app.services.play;

/** A buy then its reveal through the play service: the round as the page saw it. */
async function playCard(sessionId: string) {
  const bought = await play().buy(sessionId);
  if (!bought.ok) throw new Error(`buy: ${bought.code}`);
  const revealed = await play().reveal(sessionId, bought.data.round.roundId);
  if (!revealed.ok) throw new Error(`reveal: ${revealed.code}`);
  return revealed.data.round;
}

const nextCards = (sessionId: string, levels: unknown) =>
  server.call('POST', '/v1/test/next-cards', { token: test.tokens, body: { sessionId, levels } });

describe('forced cards of a test profile', () => {
  it('plays the queued levels in order, from no pool, paid through the wallet with test: true, and out of the report', async () => {
    const top = levels.at(-1);
    if (!top) throw new Error('no levels');
    const seat = await seatPlayer(server, test, 'lab-player');
    lab.setBalance('lab-player', 100_000);
    const queued = await nextCards(seat.sessionId, [top.level, 0]);
    expect(queued.status).toBe(201);
    expect(queued.body).toEqual({ status: 'success', data: { queued: 2 } });

    const topRound = await playCard(seat.sessionId);
    expect(topRound.level).toBe(top.level);
    expect(topRound.prize).toBe(Math.round(top.prize * 100));
    const losing = await playCard(seat.sessionId);
    expect(losing.level).toBe(0);
    expect(losing.prize).toBe(0);
    // The queue is empty: the next card is the test game's own pool's.
    const pooled = await playCard(seat.sessionId);

    // The forced cards came from no pool; the last card drew an index of the test game's pool.
    const stored = await Promise.all(
      [topRound, losing, pooled].map((round) => server.deps.store.rounds.findRound(round.roundId)),
    );
    expect(stored.map((round) => [round?.poolId ?? null, round?.drawIndex ?? null, round?.test])).toEqual([
      [null, null, true],
      [null, null, true],
      [expect.any(String), expect.any(Number), true],
    ]);

    // Every call of the test profile's wallet says test: true; the top prize was paid.
    const calls = lab.calls.filter((call) => call.body.credential === 'lab-player');
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((call) => call.body.test === true)).toBe(true);
    const prize = calls.find((call) => call.kind === 'prize' && call.body.roundId === topRound.roundId);
    expect(prize?.body.amount).toBe(top.prize);

    // Its rounds say so in the lists and in their webhook events; a real round does not.
    const realSeat = await seatPlayer(server, real, 'real-player');
    operator.setBalance('real-player', 100_000);
    const realRound = await playCard(realSeat.sessionId);
    const listed = await server.call('GET', '/v1/round?pageSize=100', { token: test.tokens });
    const byId = new Map(listed.body.data.map((round: { _id: string }) => [round._id, round]));
    expect(byId.get(topRound.roundId)).toMatchObject({ test: true, prize: top.prize });
    expect(byId.get(realRound.roundId)).not.toHaveProperty('test');
    const closed = await eventually(() =>
      operator.events.find(
        (event) => event.event === 'close-round' && event.payload._id === topRound.roundId,
      ),
    );
    expect(closed.payload.test).toBe(true);
    const realClosed = await eventually(() =>
      operator.events.find(
        (event) => event.event === 'close-round' && event.payload._id === realRound.roundId,
      ),
    );
    expect(realClosed.payload).not.toHaveProperty('test');

    // The report counts the real round only.
    const report = await server.call('GET', '/v1/report?groupBy=game', { token: test.tokens });
    expect(report.status).toBe(200);
    expect(report.body.data.map((row: { key: string; rounds: number }) => [row.key, row.rounds])).toEqual([
      [real.gameId, 1],
    ]);
  });

  it('refuses a real profile’s session (409) and a level the game lacks (400), changing nothing', async () => {
    const realSeat = await seatPlayer(server, real, 'real-refused');
    const testSeat = await seatPlayer(server, test, 'lab-refused');
    const other = (await server.newClient('Other lab')).tokens;
    const before = await snapshots.snapshot();
    const refused = await server.call('POST', '/v1/test/next-cards', {
      token: real.tokens,
      body: { sessionId: realSeat.sessionId, levels: [1] },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('CONFLICT');
    const unknown = await nextCards(testSeat.sessionId, [1, 99]);
    expect(unknown.status).toBe(400);
    expect(unknown.body.messages.join(' ')).toContain('no level 99');
    for (const bad of [[], [-1], [1.5], Array(101).fill(0), 'top', null]) {
      const answer = await nextCards(testSeat.sessionId, bad);
      expect(answer.status, JSON.stringify(bad)).toBe(400);
      expect(answer.body.status).toBe('error');
    }
    // Another client's session is answered as an unknown one.
    const theirs = await server.call('POST', '/v1/test/next-cards', {
      token: other,
      body: { sessionId: testSeat.sessionId, levels: [0] },
    });
    const none = await server.call('POST', '/v1/test/next-cards', {
      token: other,
      body: { sessionId: 'no-such-session', levels: [0] },
    });
    expect(none.status).toBe(400);
    expectAnsweredAsUnknown(theirs, none, { theirs: testSeat.sessionId, unknown: 'no-such-session' });
    expect(await snapshots.snapshot()).toBe(before);
  });

  it('never changes a profile to or from test', async () => {
    for (const [profileId, type] of [
      [test.profileId, 'operator'],
      [real.profileId, 'test'],
    ] as const) {
      const answer = await server.call('PUT', `/v1/profile/${profileId}`, {
        token: test.tokens,
        body: { type },
      });
      expect(answer.status).toBe(409);
    }
  });
});
