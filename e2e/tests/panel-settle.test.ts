import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '../../apps/panel/src/i18n/en.ts';
import type { GameRecord } from '../../apps/server/src/store/records.ts';
import {
  LOCAL_INTEGRATION,
  startTestServer,
  type TestServer,
  type TokenSet,
} from '../../apps/server/test/harness.ts';
import {
  connectPlayer,
  eventually,
  seatPlayer,
  setUpOperatorGame,
} from '../../apps/server/test/play-fixtures.ts';
import { drawPoolTo } from '../../apps/server/test/pool-fixtures.ts';
import { startTestOperator, type TestOperator } from '../../apps/server/test/test-operator.ts';
import { launchChromium } from '../src/chromium.ts';
import { signIn } from '../src/panel-sign-in.ts';

/**
 * What the staff day (panel.test.ts) cannot reach in seconds, in Debian's Chromium against a real
 * service (SQLite) and a real HTTP wallet on 127.0.0.1:
 * - a round whose prize the wallet failed for a day, so the service flagged it for reconciliation,
 *   resolved from the round's own page: it leaves the flagged list and the audit log has it;
 * - a ticket pool used up, whose published seed *Verify* checks in the browser (the pool, and a
 *   round's draw on its page);
 * - a failing webhook on the overview, then deleted (the staff day's webhook never fails);
 * - the round list paged, and the transaction list filtered by status.
 *
 * One game of the smallest pool the rules allow (100,001 tickets), every ticket a winner (so the
 * wallet is asked for a prize). The service's own ticker is held off (`tickMs`): the test moves the
 * clock and runs the retries itself, as the server's play-loop test does.
 */

const PASSWORD = 'correct horse battery';
const SAMPLING = 100_001;
/** The pool's last tickets, bought and revealed through the play socket, which ends the pool. */
const PLAYED_LAST = 3;
const WAIT = { timeout: 30_000 };
const UNLUCKY = 'unlucky';

let server: TestServer;
let operator: TestOperator;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let email: string;
let apiKey: string;
let tokens: TokenSet;
let profileId: string;
let gameId: string;
let flaggedRoundId = '';

const play = () => server.running.app.services.play;

/** A player with a session on the game: its ids and the session token of its gameUrl. */
const seat = (credential: string) => seatPlayer(server, { tokens, profileId, gameId }, credential);

/** Buys a card through the play socket and reveals it; the round's id. */
async function playOne(token: string): Promise<string> {
  const player = await connectPlayer(server.url, token);
  try {
    const bought = await player.ask('buy');
    if (!bought.ok) throw new Error(`buy refused: ${JSON.stringify(bought)}`);
    const roundId = bought.data.round.roundId as string;
    await player.ask('reveal', { roundId });
    return roundId;
  } finally {
    player.close();
  }
}

const heading = (text: string) => page.getByRole('heading', { level: 1, name: text });
const nav = (name: string) => page.getByRole('navigation').getByRole('link', { name, exact: true });

beforeAll(async () => {
  [operator, browser] = await Promise.all([
    // The wallet answers 500 to every prize of one player, and to nothing else.
    startTestOperator({
      startCents: 100_000,
      chooseFault: (kind, body) => (kind === 'prize' && body.credential === UNLUCKY ? 'http500' : undefined),
    }),
    launchChromium(),
  ]);
  server = await startTestServer({ env: LOCAL_INTEGRATION, play: { tickMs: 3_600_000 } });
  ({ email, apiKey, tokens } = await server.newClient('Casa Lotérica'));
  ({ profileId, gameId } = await setUpOperatorGame(
    server,
    operator,
    { sampling: SAMPLING, prizedPercent: 1, betPrice: 1 },
    tokens,
  ));
  context = await browser.newContext({ viewport: { width: 1280, height: 860 }, locale: 'en-US' });
  page = await context.newPage();
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.close();
  await operator?.close();
});

describe('settling in the back office, in a real browser against a real service', () => {
  it('resolves, from its page, a round flagged after a day of failed prize attempts; the audit log has it', async () => {
    flaggedRoundId = await playOne((await seat(UNLUCKY)).token);
    // The prize is retried with back-off for at least 24 h, then given up and the round flagged.
    for (let hour = 0; hour < 25; hour++) {
      server.clock.advance(3600_000);
      await play().settleDue();
    }
    expect(await server.deps.store.rounds.findRound(flaggedRoundId)).toMatchObject({
      status: 'closed',
      reconciliation: true,
    });
    // A day later the first token set has expired: the test's own calls need a new one.
    tokens = (await server.call('POST', '/v1/auth/login', { body: { apiKey } })).body.data;

    await page.goto(`${server.url}/panel/`);
    await signIn(page, email, PASSWORD);
    await heading(en.overview.title).waitFor(WAIT);
    await nav(en.nav.flagged).click();
    await heading(en.flagged.title).waitFor(WAIT);
    const row = page.getByRole('row', { name: new RegExp(UNLUCKY) });
    await row.waitFor(WAIT);
    expect(await row.textContent()).toContain('failed'); // the prize, given up

    await row.getByRole('link', { name: en.round.open(flaggedRoundId) }).click();
    await heading(en.round.title(flaggedRoundId.slice(0, 8))).waitFor(WAIT);
    await page.getByText(en.round.flaggedYes).waitFor(WAIT);
    const form = page.locator('form.resolve');
    await form.getByLabel(en.flagged.resolutions.paid).check();
    await form.getByLabel(en.flagged.note).fill('Prize of 1.00 paid by bank transfer, ticket 4242.');
    await form.getByRole('button', { name: en.flagged.resolve, exact: true }).click();
    await page.getByRole('status').filter({ hasText: en.flagged.resolved }).waitFor(WAIT);
    // The page loads the round again: resolved, with its note, and no form any more.
    await page.getByText(/^resolved: Paid/).waitFor(WAIT);
    await page.getByText('Prize of 1.00 paid by bank transfer, ticket 4242.').waitFor(WAIT);
    expect(await page.locator('form.resolve').count()).toBe(0);

    await nav(en.nav.flagged).click();
    await page.getByText(en.flagged.none).waitFor(WAIT);
    const flagged = await server.call('GET', '/v1/reconciliation', { token: tokens });
    expect(flagged.body.pagination.totalCount).toBe(0);

    await nav(en.nav.access).click();
    const audit = page.getByRole('region', { name: en.access.auditTitle });
    const entry = audit.getByRole('row', { name: /POST \/v1\/round\/:roundId\/resolve/ });
    await entry.waitFor(WAIT);
    expect(await entry.textContent()).toContain(flaggedRoundId);
    expect(await entry.textContent()).toContain(en.access.actors.panel);
  });

  it('verifies an ended pool in the pools view: its seed matches the published commitment', async () => {
    const lucky = await seat('lucky');
    // All but the last tickets drawn as the play loop writes them (pool-fixtures.ts), then the last
    // ones bought and revealed through the play socket: the service itself ends the pool.
    const game = (await server.deps.store.games.findById(gameId)) as GameRecord;
    const drawn = await drawPoolTo(server.deps, game, lucky, PLAYED_LAST);
    expect(drawn).toMatchObject({ draws: SAMPLING - PLAYED_LAST, endedAt: null });
    for (let i = 0; i < PLAYED_LAST; i++) await playOne(lucky.token);
    const [pool] = await eventually(async () => {
      const pools = await server.call('GET', `/v1/game/${gameId}/pools`, { token: tokens });
      return pools.body.data[0]?.seed ? pools.body.data : undefined;
    });
    expect(pool).toMatchObject({ number: 1, draws: SAMPLING, endedAt: expect.any(String) });

    await nav(en.nav.games).click();
    await heading(en.games.title).waitFor(WAIT);
    await page.getByRole('button', { name: en.pools.of('oxe-ganhei', 1) }).click();
    const pools = page.getByRole('region', { name: en.pools.of('oxe-ganhei', 1) });
    const ended = pools.getByRole('row', { name: new RegExp(pool.seed) });
    await ended.waitFor(WAIT);
    expect(await ended.textContent()).toContain(en.pools.drawnOf('100,001', '100,001'));
    await ended.getByRole('button', { name: en.pools.verifyLabel(1) }).click();
    await ended.getByRole('status').filter({ hasText: en.pools.verified }).waitFor(WAIT);

    // A round of that pool: its page now checks its own draw against the published seed.
    const detail = await server.call('GET', `/v1/round/${flaggedRoundId}`, { token: tokens });
    expect(detail.body.data.ticket).toMatchObject({ seed: pool.seed, level: expect.any(Number) });
    await page.goto(`${server.url}/panel/round?id=${flaggedRoundId}`);
    const ticket = page.getByRole('region', { name: en.round.ticketTitle });
    await ticket.getByRole('button', { name: en.round.verify }).click();
    await ticket
      .getByRole('status')
      .filter({ hasText: en.round.verified(detail.body.data.ticket.level) })
      .waitFor(WAIT);
  });

  it('shows a failing webhook on the overview, then deletes it after asking: the service has it no more', async () => {
    const [webhook] = (await server.call('GET', '/v1/webhook', { token: tokens })).body.data;
    const failures = async () => {
      const count = async (status: string) =>
        (await server.call('GET', `/v1/webhook/${webhook.id}?status=${status}`, { token: tokens })).body
          .pagination.totalCount as number;
      return (await count('failed')) + (await count('pending'));
    };
    expect(await failures()).toBe(0);
    // The receiver answers the next delivery with a 500: a failed attempt, retried later.
    operator.webhookAnswers(500);
    await playOne((await seat('later')).token);
    await eventually(async () => (await failures()) > 0);
    // The overview's week is the browser's: make it the service's (its test clock is in March 2026).
    await page.clock.setFixedTime(server.clock());
    await nav(en.nav.overview).click();
    await heading(en.overview.title).waitFor(WAIT);
    const failing = page.getByRole('table', { name: en.overview.webhooksTitle });
    await failing.getByRole('row', { name: new RegExp(operator.webhookUrl) }).waitFor(WAIT);

    await nav(en.nav.webhooks).click();
    await heading(en.webhooks.title).waitFor(WAIT);
    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.accept();
    });
    await page.getByRole('button', { name: `${en.common.delete}: ${operator.webhookUrl}` }).click();
    await page.getByRole('status').filter({ hasText: en.webhooks.deleted }).waitFor(WAIT);
    expect(asked).toEqual([en.webhooks.confirmDelete(operator.webhookUrl)]);
    expect((await server.call('GET', '/v1/webhook', { token: tokens })).body.data).toEqual([]);
    expect(await page.getByRole('row', { name: new RegExp(operator.webhookUrl) }).count()).toBe(0);
  });

  it('pages the rounds within the lists’ reach, and filters the transactions by status', async () => {
    const total = (await server.call('GET', '/v1/round?pageSize=1', { token: tokens })).body.pagination
      .totalCount as number;
    expect(total).toBeGreaterThan(SAMPLING); // the pool's rounds and a few more
    await nav(en.nav.rounds).click();
    await heading(en.rounds.title).waitFor(WAIT);
    // 20 a page, and the service pages through the newest 10,000 records: 500 pages at most.
    await page.getByText(en.common.pageOf(1, 500, total)).waitFor(WAIT);
    await page.getByRole('button', { name: en.common.next }).click();
    await page.getByText(en.common.pageOf(2, 500, total)).waitFor(WAIT);
    await page.waitForURL((url) => url.searchParams.get('pageIndex') === '2', WAIT);

    // The prize given up is the one failed transaction.
    await nav(en.nav.transactions).click();
    await heading(en.transactions.title).waitFor(WAIT);
    await page.getByLabel(en.common.status).selectOption({ label: en.transactions.statuses.failed });
    await page.getByRole('button', { name: en.common.apply }).click();
    await page.getByText(en.common.pageOf(1, 1, 1)).waitFor(WAIT);
    const row = page.getByRole('row', { name: /failed/ });
    expect(await row.getByRole('link', { name: en.round.open(flaggedRoundId) }).count()).toBe(1);
  });
});
