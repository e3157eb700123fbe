import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_INTEGRATION, startTestServer, type TestServer, type TokenSet } from './harness.ts';
import { listAllPages } from './ledger-fixtures.ts';
import {
  connectPlayer,
  type GameSetup,
  newSession,
  type Player,
  setUpOperatorGame,
} from './play-fixtures.ts';
import { type Fault, startTestOperator, type TestOperator } from './test-operator.ts';

/**
 * docs/contract.md §6: for every player and currency, the sum of the `completed` transactions of
 * GET /v1/transaction equals what the wallet actually moved, whatever faults happened on the way.
 * The wallet is a real HTTP server that keeps its own ledger; fast-check picks the fault of every
 * bet, prize and rollback call. The one exception is a round the service flags for reconciliation
 * (the wallet definitely refused a rollback): a person settles it, so it is checked apart.
 */

const FAULTS: Fault[] = [
  'http500',
  'hang',
  'drop',
  'decline',
  'insufficient',
  'ok-then-hang',
  'ok-then-500',
  'ok-then-drop',
];
const RETRY_MS = 1000;

let server: TestServer;
let operator: TestOperator;
/** The faults of the current run, consumed in call order; past its end every call succeeds. */
let plan: Array<Fault | null> = [];

beforeAll(async () => {
  operator = await startTestOperator({
    chooseFault: (kind) => (kind === 'balance' ? undefined : (plan.shift() ?? undefined)),
  });
  server = await startTestServer({
    env: LOCAL_INTEGRATION,
    play: {
      walletTimeoutMs: 150,
      // Longer than the clock moves while rounds are played: the retrier leaves in-flight calls alone.
      walletInFlightMs: 60_000,
      walletRetryDelaysMs: [RETRY_MS],
      tickMs: 600_000,
    },
  });
});
afterAll(async () => {
  await server?.close();
  await operator?.close();
});

const play = () => server.running.app.services.play;
const cents = (amount: number) => Math.round(amount * 100);

/** Every wallet call due now is sent; the clock then moves past the next retry. */
async function retryOnce(): Promise<void> {
  await play().settleDue();
  server.clock.advance(RETRY_MS + 1);
  await play().settleDue();
}

const listAll = (tokens: TokenSet, path: string) => listAllPages(server, tokens, path);

/** One player buys and reveals `rounds` cards; a refused buy is tried once more after a retry pass. */
async function playRounds(player: Player, rounds: number): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    const bought = await player.ask('buy');
    if (!bought.ok) {
      // A prize still being paid keeps the round live: let the retrier work, then go on.
      if (bought.error.code === 'ROUND_IN_PROGRESS') await retryOnce();
      continue;
    }
    await player.ask('reveal', { roundId: bought.data.round.roundId });
  }
}

/** Retries until no wallet call of the client is pending (each pass gives every call another go). */
async function settleAll(setup: GameSetup): Promise<any[]> {
  for (let pass = 0; pass < 500; pass++) {
    const transactions = await listAll(setup.tokens, `/v1/transaction?profileId=${setup.profileId}`);
    if (transactions.every((t) => t.status !== 'pending')) return transactions;
    await retryOnce();
  }
  throw new Error('wallet calls still pending after 500 retry passes');
}

const faultArbitrary = fc.oneof(
  { arbitrary: fc.constant(null), weight: 6 },
  { arbitrary: fc.constantFrom(...FAULTS), weight: 4 },
);

describe('the ledger reconciles with the wallet', () => {
  it('the completed transactions equal what the wallet moved, under random faults at every wallet call', async () => {
    let runs = 0;
    let faultsSeen = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 4 }),
        fc.integer({ min: 3, max: 8 }),
        fc.array(faultArbitrary, { maxLength: 100 }),
        async (playerCount, rounds, faults) => {
          runs++;
          plan = [...faults];
          faultsSeen += faults.filter((fault) => fault !== null).length;
          const setup = await setUpOperatorGame(server, operator, { prizedPercent: 0.5 });
          const credentials = Array.from({ length: playerCount }, (_, i) => `run${runs}-p${i}`);
          const players = await Promise.all(
            credentials.map(async (credential) =>
              connectPlayer(server.url, await newSession(server, setup, credential)),
            ),
          );
          try {
            await Promise.all(players.map((player) => playRounds(player, rounds)));
          } finally {
            for (const player of players) player.close();
          }
          const transactions = await settleAll(setup);
          plan = [];
          const roundList = await listAll(setup.tokens, `/v1/round?profileId=${setup.profileId}`);
          const flagged = new Set<string>();
          for (const round of roundList) {
            const id = round._id as string;
            if ((await server.deps.store.rounds.findRound(id))?.reconciliation) flagged.add(id);
          }
          const users = await listAll(setup.tokens, `/v1/user?profileId=${setup.profileId}`);

          for (const credential of credentials) {
            const user = users.find((u) => u.credential === credential);
            const mine = transactions.filter((t) => t.userId === user._id);
            const myRounds = roundList.filter((round) => round.user._id === user._id);
            const byCurrency = (rows: Array<{ currency: string; cents: number }>) => {
              const sums: Record<string, number> = {};
              for (const row of rows) sums[row.currency] = (sums[row.currency] ?? 0) + row.cents;
              return sums;
            };
            const ledger = byCurrency(
              mine
                .filter((t) => t.status === 'completed')
                .map((t) => ({ currency: t.currency, cents: cents(t.amount) })),
            );
            const wallet = byCurrency(
              operator.moves.filter((m) => m.credential === credential && !flagged.has(m.roundId)),
            );
            const nonZero = (sums: Record<string, number>) =>
              Object.fromEntries(Object.entries(sums).filter(([, value]) => value !== 0));
            expect(nonZero(ledger), `${credential}: completed transactions vs the wallet`).toEqual(
              nonZero(wallet),
            );

            for (const round of myRounds) {
              const shape = round.transactions.map((t: any) => `${t.type}:${t.status}`).join(' ');
              if (flagged.has(round._id)) {
                // Only a rollback the wallet definitely refused leaves a round to a person; none counts.
                expect(shape).toBe('bet:failed rollback:declined');
              } else if (round.status === 'voided') {
                // The unanswered bet and its confirmed rollback: both counted, netting to zero.
                expect(shape).toBe('bet:completed rollback:completed');
                expect(round.transactions.reduce((sum: number, t: any) => sum + cents(t.amount), 0)).toBe(0);
              } else if (round.status === 'declined') {
                expect(shape).toBe('bet:declined');
              } else {
                expect(round.status).toBe('closed');
                expect(shape).toBe(round.prize > 0 ? 'bet:completed prize:completed' : 'bet:completed');
              }
            }
            // The player's counters count the rounds played and the prizes paid, not voided bets.
            expect(user.totalBets).toBe(myRounds.filter((round) => round.status === 'closed').length);
            expect(user.betWins).toBe(
              mine.filter((t) => t.type === 'prize' && t.status === 'completed').length,
            );
          }
        },
      ),
      { numRuns: 20, endOnFailure: true },
    );
    expect(runs).toBe(20);
    expect(faultsSeen).toBeGreaterThan(0);
  }, 180_000);
});
