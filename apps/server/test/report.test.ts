import { type ReportRound, type ReportTransaction, reportSumsOf } from '@raspa/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAnsweredAsUnknown } from './as-unknown.ts';
import { readCsvRecords } from './csv-reader.ts';
import { startTestServer, type TestServer, type TokenSet } from './harness.ts';
import { type LedgerFixtures, ledgerFixtures, listAllPages } from './ledger-fixtures.ts';

/**
 * docs/contract.md §11: GET /v1/report equals the sums of GET /v1/transaction over the same filter
 * (completed transactions: docs/reconciliation.md), for random ledgers with free cards in them
 * (docs/promotions.md: their rounds from GET /v1/round, summed by core's reportSumsOf); its CSV,
 * and the lists', read back as the same rows.
 */

let server: TestServer;
let fixtures: LedgerFixtures;
beforeAll(async () => {
  server = await startTestServer();
  fixtures = ledgerFixtures(server);
});
afterAll(async () => {
  await server?.close();
});

let clients = 0;
/** A new API client with a token set, without the rate-limited login (a property makes many). */
async function newClient() {
  const { auth } = server.running.app.services;
  const { client } = await auth.createClient({ name: 'Report', email: `report-${++clients}@example.test` });
  return { clientId: client.id, tokens: await auth.issueTokenSet(client.id) };
}

const listAll = (tokens: TokenSet, path: string) => listAllPages(server, tokens, path);

/** The CSV's rows as objects keyed by its header. */
function readCsv(text: string): Record<string, string>[] {
  const [header = [], ...rows] = readCsvRecords(text);
  return rows.map((row) => Object.fromEntries(header.map((name, i) => [name, row[i] ?? ''])));
}

const cents = (amount: number) => Math.round(amount * 100);
const DAY = 86_400_000;
const START = Date.parse('2026-02-01T00:00:00.000Z');

const roundArb = fc.record({
  seat: fc.nat(2),
  day: fc.nat(4),
  second: fc.nat(86_399),
  outcome: fc.constantFrom('closed', 'closed', 'voided'),
  prize: fc.constantFrom(0, 0, 500, 2_000),
  /** A free card: no bet; `voided` becomes a losing `closed` (a free round has no bet to void). */
  free: fc.constantFrom(false, false, true),
});

describe('GET /v1/report', () => {
  it('equals the sums of the completed transactions and free rounds of the lists, for every groupBy and filter', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(roundArb, { minLength: 1, maxLength: 25 }),
        fc.nat(4),
        fc.nat(4),
        async (plan, a, b) => {
          const client = await newClient();
          const brl = await fixtures.seat(client.clientId, { currency: 'BRL' });
          const seats = [
            brl,
            await fixtures.addPlayer(brl, `other-${client.clientId}`),
            await fixtures.seat(client.clientId, { currency: 'USD', betMinor: 300 }),
          ];
          const promotions = new Map<string, string>();
          const promotionOf = async (seat: (typeof seats)[number]) => {
            const promotionId = promotions.get(seat.gameId) ?? (await fixtures.promotion(seat));
            promotions.set(seat.gameId, promotionId);
            return promotionId;
          };
          for (const round of plan) {
            const seat = seats[round.seat] ?? brl;
            const at = new Date(START + round.day * DAY + round.second * 1000).toISOString();
            if (round.free) {
              const prizeMinor = round.outcome === 'voided' ? 0 : round.prize;
              await fixtures.round(seat, { at, prizeMinor, promotionId: await promotionOf(seat) });
            } else {
              await fixtures.round(seat, {
                at,
                outcome: round.outcome as 'closed' | 'voided',
                prizeMinor: round.prize,
              });
            }
          }
          // A free card in play counts (one live round per player: this player's only open one).
          const last = new Date(START + 4 * DAY + 43_200_000).toISOString();
          await fixtures.round(seats[1] ?? brl, {
            at: last,
            outcome: 'open',
            promotionId: await promotionOf(brl),
          });
          const currencyOf = new Map(seats.map((seat) => [seat.gameId, seat.currency]));
          const day = (n: number) => new Date(START + n * DAY).toISOString().slice(0, 10);
          const range = `&dateStart=${day(Math.min(a, b))}&dateEnd=${day(Math.max(a, b))}`;
          // Every round, unfiltered: a prize paid just after midnight is in a day range its round
          // (bought the day before) is not, and its game and promotion are its round's.
          const allRounds = await listAll(client.tokens, '/v1/round?');
          const roundOf = new Map(allRounds.map((round) => [round._id, round]));
          for (const filter of ['', range, `&profileId=${brl.profileId}`]) {
            const transactions = (await listAll(client.tokens, `/v1/transaction?${filter}`)).filter(
              (t) => t.status === 'completed',
            );
            // Free rounds count by the round's own day: those the round list keeps for the filter.
            const freeRounds = (await listAll(client.tokens, `/v1/round?${filter}`)).filter(
              (round) => round.promotionId !== null,
            );
            for (const groupBy of ['day', 'game', 'currency', 'player'] as const) {
              const keyOf = (record: {
                createdAt: string;
                gameId: string;
                currency: string;
                userId: string;
              }) =>
                groupBy === 'day'
                  ? record.createdAt.slice(0, 10)
                  : groupBy === 'game'
                    ? record.gameId
                    : groupBy === 'currency'
                      ? record.currency
                      : record.userId;
              const groups = new Map<string, any>();
              const groupOf = (key: string, currency: string) => {
                const id = `${key}|${currency}`;
                const group = groups.get(id) ?? {
                  key,
                  currency,
                  roundIds: new Set(),
                  players: new Set(),
                  rounds: [] as ReportRound[],
                  transactions: [] as ReportTransaction[],
                };
                groups.set(id, group);
                return group;
              };
              for (const t of transactions) {
                const round = roundOf.get(t.roundId);
                const group = groupOf(keyOf({ ...t, gameId: round.gameId }), t.currency);
                group.transactions.push({
                  type: t.type,
                  status: t.status,
                  amountMinor: cents(t.amount),
                  promotionId: round.promotionId,
                });
                if (t.type === 'bet') {
                  group.roundIds.add(t.roundId);
                  group.players.add(t.userId);
                }
              }
              for (const round of freeRounds) {
                const currency = currencyOf.get(round.gameId) as string;
                groupOf(keyOf({ ...round, currency, userId: round.user._id }), currency).rounds.push({
                  promotionId: round.promotionId,
                  status: round.status,
                });
              }
              const expected = [...groups.entries()]
                .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
                .map(([, group]) => {
                  const sums = reportSumsOf(group.rounds, group.transactions);
                  return {
                    key: group.key,
                    currency: group.currency,
                    rounds: group.roundIds.size,
                    players: group.players.size,
                    bets: sums.betsMinor / 100,
                    prizes: sums.prizesMinor / 100,
                    rollbacks: sums.rollbacksMinor / 100,
                    promoRounds: sums.promoRounds,
                    promoPrizes: sums.promoPrizesMinor / 100,
                    ggr:
                      (sums.betsMinor - sums.prizesMinor - sums.rollbacksMinor - sums.promoPrizesMinor) / 100,
                    rtp: sums.betsMinor === 0 ? null : sums.prizesMinor / sums.betsMinor,
                  };
                });
              const report = await server.call('GET', `/v1/report?groupBy=${groupBy}${filter}`, {
                token: client.tokens,
              });
              expect(report.status).toBe(200);
              expect(report.body.data).toEqual(expected);
            }
          }
        },
      ),
      { numRuns: 6 },
    );
  });

  it('answers CSV that reads back as the same rows, on the report and on both lists', async () => {
    const client = await newClient();
    const seat = await fixtures.seat(client.clientId, { credential: 'ana, "the boss"\nsilva@example.test' });
    await fixtures.round(seat, { at: '2026-02-02T10:00:00.000Z', prizeMinor: 2_000 });
    await fixtures.round(seat, { at: '2026-02-03T10:00:00.000Z', outcome: 'voided' });
    const promotionId = await fixtures.promotion(seat);
    await fixtures.round(seat, { at: '2026-02-04T10:00:00.000Z', prizeMinor: 500, promotionId });
    const asText = (value: unknown) => (value === null ? '' : String(value));

    for (const [path, flatten] of [
      ['/v1/report?groupBy=player', (row: any) => row],
      ['/v1/transaction?pageSize=100', (row: any) => row],
      [
        '/v1/round?pageSize=100',
        (row: any) => {
          const { user, transactions, ...rest } = row;
          return { ...rest, userId: user._id, credential: user.credential };
        },
      ],
    ] as const) {
      const json = await server.call('GET', path, { token: client.tokens });
      const csv = await server.call('GET', `${path}&format=csv`, { token: client.tokens });
      expect(csv.status).toBe(200);
      expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
      const read = readCsv(csv.body as string);
      const expected = json.body.data.map((row: any) =>
        Object.fromEntries(Object.entries(flatten(row)).map(([key, value]) => [key, asText(value)])),
      );
      expect(read).toEqual(expected);
      expect(read.length).toBeGreaterThan(0);
    }
    // The free card's round carries its promotion in the list and the CSV; the report counts it.
    const csv = await server.call('GET', '/v1/round?format=csv', { token: client.tokens });
    expect(readCsv(csv.body as string).map((row) => row.promotionId)).toEqual([promotionId, '', '']);
    const report = await server.call('GET', '/v1/report?groupBy=currency', { token: client.tokens });
    expect(report.body.data).toMatchObject([
      { rounds: 2, promoRounds: 1, prizes: 20, promoPrizes: 5, ggr: -20 },
    ]);
  });

  it('exports every row of a list matching its filters as CSV, all pages, in the list’s order', async () => {
    const client = await newClient();
    const a = await fixtures.seat(client.clientId);
    const b = await fixtures.seat(client.clientId);
    const other = await newClient();
    await fixtures.round(await fixtures.seat(other.clientId), { at: '2026-02-02T10:00:00.000Z' });
    // 150 rounds over 3 days, many bought in the same second: the export's batches must break ties
    // the way the list does (by id) and lose or repeat none.
    for (let i = 0; i < 150; i++) {
      const at = new Date(START + DAY * (i % 3) + 1000 * (i % 7)).toISOString();
      const outcome = i % 5 === 0 ? 'voided' : 'closed';
      await fixtures.round(i % 4 === 0 ? b : a, { at, outcome, prizeMinor: i % 3 === 0 ? 500 : 0 });
    }
    const flatRound = (row: any) => {
      const { user, transactions, ...rest } = row;
      return { ...rest, userId: user._id, credential: user.credential };
    };
    const asText = (value: unknown) => (value === null ? '' : String(value));
    const lists = [
      ['/v1/round?x=1', flatRound],
      ['/v1/transaction?x=1', (row: any) => row],
      [`/v1/round?profileId=${a.profileId}`, flatRound],
      ['/v1/round?type=rollback', flatRound],
      ['/v1/transaction?type=prize&dateStart=2026-02-02&dateEnd=2026-02-03', (row: any) => row],
      [`/v1/transaction?userId=${b.playerId}`, (row: any) => row],
      ['/v1/round?status=voided', flatRound],
      ['/v1/round?status=closed&type=prize', flatRound],
      ['/v1/transaction?status=completed&type=rollback', (row: any) => row],
    ] as const;
    for (const [path, flatten] of lists) {
      const paged = await listAll(client.tokens, path);
      // pageIndex and pageSize do not narrow an export.
      const csv = await server.call('GET', `${path}&format=csv&pageSize=10&pageIndex=2`, {
        token: client.tokens,
      });
      expect(csv.status).toBe(200);
      expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
      const read = readCsv(csv.body as string);
      const expected = paged.map((row: any) =>
        Object.fromEntries(Object.entries(flatten(row)).map(([key, value]) => [key, asText(value)])),
      );
      expect(read).toEqual(expected);
    }
    expect((await listAll(client.tokens, '/v1/transaction?x=1')).length).toBeGreaterThan(150);

    // The batches themselves, small: the same rounds, in the same order, each once.
    const auth = { clientId: client.clientId, tokenSetId: '', via: 'api-key', signatureToken: '' } as const;
    const ids: string[] = [];
    for await (const batch of await server.running.app.services.lists.allRounds(auth, {}, 7)) {
      expect(batch.length).toBeLessThanOrEqual(7);
      ids.push(...batch.map((round) => round.id));
    }
    expect(ids).toEqual((await listAll(client.tokens, '/v1/round?x=1')).map((round) => round._id));
  });

  it('neutralises formulas in text cells (OWASP, CSV injection) and keeps amounts numbers (issue 22)', async () => {
    const client = await newClient();
    const first = await fixtures.seat(client.clientId);
    const credentials = [
      '=HYPERLINK("http://x","click")',
      "+cmd|' /C calc'!A0",
      '-2+3',
      "@SUM(1+1)*cmd|' /C calc'!A0",
      '\t=1+1',
      '\r=1+1',
      // Behind blanks a spreadsheet may strip, and in full width (issue 32).
      '\n=1+1',
      '  =1+1',
      '\t -2+3',
      '＝1+1',
      '＋cmd',
      '－2+3',
      '＠SUM(1+1)',
    ];
    for (const credential of credentials) {
      await fixtures.round(await fixtures.addPlayer(first, credential), { at: '2026-02-01T10:00:00.000Z' });
    }
    const rounds = await server.call('GET', '/v1/round?format=csv', { token: client.tokens });
    const transactions = await server.call('GET', '/v1/transaction?format=csv', { token: client.tokens });
    const report = await server.call('GET', '/v1/report?format=csv&groupBy=player', { token: client.tokens });
    for (const csv of [rounds, transactions, report]) {
      expect(csv.status).toBe(200);
      // No field of any line starts with a formula character, quoted or not.
      for (const record of readCsvRecords(csv.body as string)) {
        for (const field of record) {
          expect(field).not.toMatch(/^[\t\r\n]|^\s*[=+@＝＋＠]|^\s*[-－](?!\d+(\.\d+)?$)/u);
        }
      }
    }
    const roundRows = readCsv(rounds.body as string);
    expect(roundRows.map((row) => row.credential).sort()).toEqual(credentials.map((c) => `'${c}`).sort());
    // Each neutralised cell stays quoted in the file.
    for (const credential of credentials) {
      expect(rounds.body as string).toContain(`"'${credential.replaceAll('"', '""')}"`);
    }
    // A bet is a negative number and stays one: a spreadsheet sums it.
    const bets = readCsv(transactions.body as string).filter((row) => row.type === 'bet');
    expect(bets.map((row) => row.amount)).toEqual(credentials.map(() => '-5'));
    expect(readCsv(report.body as string).map((row) => row.bets)).toEqual(credentials.map(() => '5'));
  });

  it('checks an export’s filters before the first byte: 400 and 404 as JSON', async () => {
    const client = await newClient();
    const other = await newClient();
    const theirs = await fixtures.seat(other.clientId);
    for (const [path, status] of [
      ['/v1/round?format=csv&type=refund', 400],
      ['/v1/transaction?format=csv&status=closed', 400],
      [`/v1/round?format=csv&profileId=${theirs.profileId}`, 404],
      ['/v1/transaction?format=csv&userId=no-such-player', 404],
    ] as const) {
      const answer = await server.call('GET', path, { token: client.tokens });
      expect(answer.status).toBe(status);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    }
  });

  it('refuses bad input with VALIDATION_ERROR, and another client’s profile as an unknown one', async () => {
    const client = await newClient();
    const other = await newClient();
    const theirs = await fixtures.seat(other.clientId);
    for (const query of [
      'groupBy=week',
      'format=xml',
      'dateStart=2026-02-05&dateEnd=2026-02-01',
      'dateStart=yesterday',
    ]) {
      const answer = await server.call('GET', `/v1/report?${query}`, { token: client.tokens });
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('VALIDATION_ERROR');
    }
    const asked = (profileId: string) =>
      server.call('GET', `/v1/report?profileId=${profileId}`, { token: client.tokens });
    const unknown = await asked('no-such-profile');
    expect(unknown.status).toBe(404);
    expectAnsweredAsUnknown(await asked(theirs.profileId), unknown, {
      theirs: theirs.profileId,
      unknown: 'no-such-profile',
    });
  });
});
