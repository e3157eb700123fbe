import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { verifyProof } from '@raspa/core/audit';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '../../apps/panel/src/i18n/en.ts';
import { es } from '../../apps/panel/src/i18n/es.ts';
import { pt } from '../../apps/panel/src/i18n/pt.ts';
import type { GameRecord } from '../../apps/server/src/store/records.ts';
import { readPack, verifyPackPools } from '../../apps/server/test/certification-pack-reader.ts';
import { readCsvRecords } from '../../apps/server/test/csv-reader.ts';
import { LOCAL_INTEGRATION, startTestServer, type TestServer } from '../../apps/server/test/harness.ts';
import { connectPlayer, newSession } from '../../apps/server/test/play-fixtures.ts';
import { drawPoolTo } from '../../apps/server/test/pool-fixtures.ts';
import { type SmtpSink, startSmtpSink } from '../../apps/server/test/smtp-sink.ts';
import { startTestOperator, type TestOperator } from '../../apps/server/test/test-operator.ts';
import { launchChromium } from '../src/chromium.ts';
import { signIn as signInAs, solveCaptcha as solveCaptchaOn } from '../src/panel-sign-in.ts';
import { eventually } from '../src/raspa-fixture.ts';

/**
 * A staff member's day in the back office, in Debian's Chromium against a real service (SQLite, SMTP
 * to a local sink, a real wallet and webhook receiver): sign in with the captcha, create a profile and a
 * game after reading its ladder, register a webhook, find a round played through a gameUrl, switch
 * language, have the session expire, change the password, and reset a forgotten one from the e-mail.
 *
 * The captcha: ALTCHA's widget, bundled in the panel, solves the service's challenges in Chromium
 * (easy ones on test servers); nothing in the service or the panel has a way around it.
 *
 * PANEL_SCREENSHOTS=docs/screenshots writes the README's screenshots.
 */

const PASSWORD = 'correct horse battery';
const DESKTOP = { width: 1280, height: 860 };
const SHOTS = process.env.PANEL_SCREENSHOTS;
const WAIT = { timeout: 30_000 };

let server: TestServer;
let operator: TestOperator;
let sink: SmtpSink;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let email: string;
let apiKey: string;
/** The round played through a gameUrl, and its player's credential. */
let roundId = '';
let profileId = '';
let gameId = '';
/** The player of that round, whose ids the pool's end is drawn under. */
let poolPlayer = { sessionId: '', playerId: '' };
let apiTokens: Awaited<ReturnType<TestServer['newClient']>>['tokens'];
/** Every address the panel's pages asked for that is not the service's own: there must be none. */
const foreignRequests: string[] = [];
/** Uncaught errors in the panel, and what the page's CSP refused: there must be none. */
const pageErrors: string[] = [];

beforeAll(async () => {
  [sink, operator, browser] = await Promise.all([
    startSmtpSink(),
    startTestOperator({ startCents: 100_000 }),
    launchChromium(),
  ]);
  server = await startTestServer({ env: { ...LOCAL_INTEGRATION, SMTP_URL: sink.url } });
  // The e-mailed link opens the panel of this server (its port is known only once it listens).
  server.deps.settings.panelUrl = `${server.url}/panel/reset-password`;
  ({ email, apiKey, tokens: apiTokens } = await server.newClient('Casa Lotérica'));
  context = await browser.newContext({ viewport: DESKTOP, locale: 'en-US' });
  context.on('request', (request) => {
    if (!request.url().startsWith(`${server.url}/`) && !request.url().startsWith('data:')) {
      foreignRequests.push(request.url());
    }
  });
  page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  // The round page's renderer (Pixi) runs under the service's CSP: a refused script, eval or worker shows here.
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content.Security.Policy/i.test(message.text()))
      pageErrors.push(message.text());
  });
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.close();
  await Promise.all([operator?.close(), sink?.close()]);
});

async function shoot(name: string, target: Page = page): Promise<void> {
  if (SHOTS) await target.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

const heading = (text: string) => page.getByRole('heading', { level: 1, name: text });

const solveCaptcha = () => solveCaptchaOn(page);
const signIn = (password: string) => signInAs(page, email, password);

const nav = (name: string) => page.getByRole('navigation').getByRole('link', { name, exact: true });

describe('the back office, in a real browser against a real service', () => {
  it('asks to sign in, refuses a wrong captcha with the service’s message, then signs in', async () => {
    await page.goto(`${server.url}/panel/`);
    await heading(en.auth.signInTitle).waitFor(WAIT);
    expect(new URL(page.url()).pathname).toBe('/panel/sign-in');

    await page.getByLabel(en.auth.email).fill(email);
    await page.getByLabel(en.auth.password, { exact: true }).fill(PASSWORD);
    // The widget solves the service's challenge by itself once the form has focus.
    await page.locator('altcha-widget [data-state="verified"]').waitFor(WAIT);
    await shoot('panel-sign-in');
    // The payload changed on its way, as a script replaying or forging one would: refused with the
    // service's message, and the widget solves a new challenge at once.
    await page.route(`${server.url}/v1/auth/panel-login`, async (route) => {
      const body = route.request().postDataJSON();
      const payload = JSON.parse(Buffer.from(body.captcha, 'base64').toString('utf8'));
      payload.solution.derivedKey = payload.solution.derivedKey.replace(/.$/, (last: string) =>
        last === '0' ? '1' : '0',
      );
      const captcha = Buffer.from(JSON.stringify(payload)).toString('base64');
      await route.continue({ postData: JSON.stringify({ ...body, captcha }) });
    });
    await page.getByRole('button', { name: en.auth.signIn, exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'captcha: is wrong' }).waitFor(WAIT);
    await page.unroute(`${server.url}/v1/auth/panel-login`);

    await solveCaptcha();
    await page.getByRole('button', { name: en.auth.signIn, exact: true }).click();
    await heading(en.overview.title).waitFor(WAIT);
    await page.getByText(en.overview.nothingPlayed).first().waitFor(WAIT);
    // The token set stays out of the address and of localStorage.
    expect(page.url()).not.toContain('accessToken');
    expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain('accessToken');
  });

  it('words the captcha in the panel’s language: a checkbox to tick, nothing to read or type', async () => {
    for (const [locale, t] of [
      ['pt-BR', pt],
      ['es-AR', es],
    ] as const) {
      const other = await browser.newContext({ viewport: DESKTOP, locale });
      try {
        const signedOut = await other.newPage();
        await signedOut.goto(`${server.url}/panel/sign-in`);
        await signedOut.getByRole('heading', { level: 1, name: t.auth.signInTitle }).waitFor(WAIT);
        await solveCaptchaOn(signedOut, t);
        await signedOut.locator('altcha-widget').getByText(t.auth.captchaWidget.verified).waitFor(WAIT);
        expect(await signedOut.locator('altcha-widget img, altcha-widget input[type="text"]').count()).toBe(
          0,
        );
      } finally {
        await other.close();
      }
    }
  });

  it('creates a profile, then edits it', async () => {
    await nav(en.nav.profiles).click();
    await heading(en.profiles.title).waitFor(WAIT);
    await page.getByLabel(en.profiles.name).fill('Casa Lotérica');
    await page.getByLabel(en.profiles.type).selectOption('operator');
    await page.getByLabel(en.profiles.currency).fill('BRL');
    await page.getByLabel(en.profiles.currencies).fill('BRL, USD');
    await page.getByLabel(en.profiles.walletUrl).fill(operator.walletUrl);
    await page.getByLabel(en.profiles.walletSecret).fill(operator.walletSecret);
    await page.getByLabel(en.profiles.origins).fill('https://casa.example');
    await page.getByRole('button', { name: en.common.save }).click();
    await page
      .getByRole('status')
      .filter({ hasText: en.profiles.saved('Casa Lotérica') })
      .waitFor(WAIT);
    const row = page.getByRole('row', { name: /Casa Lotérica/ });
    await row.waitFor(WAIT);
    expect(await row.textContent()).toContain('BRL, USD');

    await page.getByRole('button', { name: `${en.common.edit}: Casa Lotérica` }).click();
    expect(await page.getByLabel(en.profiles.walletUrl).inputValue()).toBe(operator.walletUrl);
    await page.getByLabel(en.profiles.origins).fill('https://casa.example\nhttps://www.casa.example');
    await page.getByRole('button', { name: en.common.save }).click();
    await page.getByRole('row', { name: /www\.casa\.example/ }).waitFor(WAIT);
    await shoot('panel-profiles');
  });

  it('shows a game’s live ladder as its inputs change, and creates it', async () => {
    // Reached from the keyboard: focus on the link, Enter; focus then moves to the new page's heading.
    await nav(en.nav.games).focus();
    await page.keyboard.press('Enter');
    await heading(en.games.title).waitFor(WAIT);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(en.games.title);
    expect(await nav(en.nav.games).getAttribute('aria-current')).toBe('page');
    const ladder = page.getByTestId('ladder');
    await ladder.getByRole('table').waitFor(WAIT);
    expect(await ladder.getByRole('row').count()).toBe(9); // a header and 8 levels

    await page.getByLabel(en.games.model).selectOption('fera-sortuda');
    await expect
      .poll(() => ladder.locator('[data-figure="volatility"]').textContent(), WAIT)
      .toContain(en.games.volatilityLevels.extreme);
    await page.getByLabel(en.games.model).selectOption('frevo-da-sorte');
    await expect
      .poll(() => ladder.locator('[data-figure="volatility"]').textContent(), WAIT)
      .toContain(en.games.volatilityLevels.low);

    // An input the core refuses: the ladder says why, naming the field.
    await page.getByLabel(en.games.betPrice).fill('0.001');
    await expect.poll(() => ladder.textContent(), WAIT).toContain('betPrice');
    await page.getByLabel(en.games.betPrice).fill('2');
    await page.getByLabel(en.games.sampling).fill('100001');
    await ladder.getByRole('table').waitFor(WAIT);
    await shoot('panel-games');

    await page.getByRole('button', { name: en.games.save }).click();
    await page
      .getByRole('status')
      .filter({ hasText: en.games.created('frevo-da-sorte', 1) })
      .waitFor(WAIT);
    const row = page.getByRole('row', { name: /frevo-da-sorte/ });
    expect(await row.textContent()).toContain(en.common.yes);

    // Deactivate, and activate again.
    await row.getByRole('button', { name: `${en.games.deactivate}: frevo-da-sorte v1` }).click();
    await page
      .getByRole('status')
      .filter({ hasText: en.games.deactivated('frevo-da-sorte', 1) })
      .waitFor(WAIT);
    await page.getByRole('button', { name: `${en.games.activate}: frevo-da-sorte v1` }).click();
    await page
      .getByRole('status')
      .filter({ hasText: en.games.activated('frevo-da-sorte', 1) })
      .waitFor(WAIT);

    // Its PAR sheet (docs/certification.md): the levels' table, and a print without the navigation.
    await page.getByRole('button', { name: en.parSheet.of('frevo-da-sorte', 1) }).click();
    const levels = page.getByRole('region', { name: en.parSheet.levels });
    await levels.getByRole('table').waitFor(WAIT);
    expect(await levels.getByRole('row').count()).toBe(9); // a header and 8 levels
    await page.emulateMedia({ media: 'print' });
    try {
      expect(await page.locator('header nav').isVisible()).toBe(false);
      expect(await levels.isVisible()).toBe(true);
    } finally {
      await page.emulateMedia({ media: 'screen' });
    }
    expect(await page.locator('header nav').isVisible()).toBe(true);
  });

  it('registers a webhook, as a batch webhook (docs/webhooks.md, "Batches")', async () => {
    await nav(en.nav.webhooks).click();
    await heading(en.webhooks.title).waitFor(WAIT);
    await page.getByLabel(en.webhooks.url).fill(operator.webhookUrl);
    await page.getByLabel(en.webhooks.delivery, { exact: true }).selectOption('batch');
    await page.getByRole('button', { name: en.webhooks.create }).click();
    await page.getByRole('status').filter({ hasText: en.webhooks.created }).waitFor(WAIT);
    const row = page.getByRole('row', { name: new RegExp(operator.webhookUrl) });
    await row.filter({ hasText: en.webhooks.batchLimits(100, 250) }).waitFor(WAIT);
  });

  it('finds a round played through a gameUrl, by profile and from the player’s page', async () => {
    const profiles = await server.call('GET', '/v1/profile', { token: apiTokens });
    profileId = profiles.body.data[0].profileId;
    const games = await server.call('GET', `/v1/game?profileId=${profileId}`, { token: apiTokens });
    gameId = games.body.data[0].id;
    const user = await server.call('POST', '/v1/user/auth', {
      token: apiTokens,
      body: { profileId, credential: 'maria@example.test', credentialType: 'email' },
    });
    const session = await server.call('POST', '/v1/game/session', {
      token: apiTokens,
      body: { userToken: user.body.data.userToken, gameId, lang: 'pt' },
    });
    poolPlayer = { sessionId: session.body.data.sessionId, playerId: user.body.data.userId };
    const game = await context.newPage();
    try {
      await game.goto(session.body.data.gameUrl);
      await game.locator('[data-action="buy"]').click(WAIT);
      await game.locator('[data-action="reveal-all"]:enabled').click(WAIT);
      await eventually(async () => {
        const rounds = await server.call('GET', `/v1/round?profileId=${profileId}`, { token: apiTokens });
        roundId = rounds.body.data[0]?._id ?? '';
        return rounds.body.data[0]?.status === 'closed';
      }, 60_000);
    } finally {
      await game.close();
    }

    await nav(en.nav.rounds).click();
    await heading(en.rounds.title).waitFor(WAIT);
    await page.getByLabel(en.common.profile).selectOption({ label: 'Casa Lotérica' });
    await page.getByLabel(en.rounds.type).selectOption('bet');
    // A status the round does not have: the API's status filter leaves nothing.
    await page.getByLabel(en.common.status).selectOption('voided');
    await page.getByRole('button', { name: en.common.apply }).click();
    await page.waitForURL((url) => url.searchParams.get('status') === 'voided', WAIT);
    await page.getByText(en.common.none).waitFor(WAIT);
    await page.getByLabel(en.common.status).selectOption({ label: en.rounds.statuses.closed });
    await page.getByRole('button', { name: en.common.apply }).click();
    // The filters live in the address once their page has arrived, so a reload keeps them.
    await page.waitForURL(
      (url) => url.searchParams.get('type') === 'bet' && url.searchParams.get('status') === 'closed',
      WAIT,
    );
    const round = page.getByRole('row', { name: /maria@example\.test/ });
    await round.waitFor(WAIT);
    expect(await round.textContent()).toContain('closed');
    expect(await page.getByText(en.common.pageOf(1, 1, 1)).count()).toBe(1);
    await shoot('panel-rounds');

    await nav(en.nav.players).click();
    await heading(en.players.title).waitFor(WAIT);
    await page.getByLabel(en.players.search).fill('MARIA');
    await page.getByRole('button', { name: en.common.search }).click();
    await page.getByRole('link', { name: en.players.roundsOf('maria@example.test') }).click();
    await heading(en.rounds.title).waitFor(WAIT);
    await page.getByRole('row', { name: /maria@example\.test/ }).waitFor(WAIT);
    expect(new URL(page.url()).searchParams.get('userId')).toBe(user.body.data.userId);

    await nav(en.nav.transactions).click();
    await heading(en.transactions.title).waitFor(WAIT);
    await page
      .getByRole('row', { name: /completed/ })
      .first()
      .waitFor(WAIT);
  });

  it('exports the rounds as the service’s CSV, with the filters on show', async () => {
    await nav(en.nav.rounds).click();
    await page.getByRole('row', { name: /maria@example\.test/ }).waitFor(WAIT);
    const [download] = await Promise.all([
      page.waitForEvent('download', WAIT),
      page.getByRole('button', { name: en.common.exportCsv }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('rounds.csv');
    const records = readCsvRecords(readFileSync(await download.path(), 'utf8'));
    expect(records[0]?.slice(0, 2)).toEqual(['_id', 'profileId']);
    const row = records.find((record) => record[0] === roundId);
    expect(row?.[4]).toBe('maria@example.test');
    expect(row?.[5]).toBe('closed');
    await page
      .getByRole('status')
      .filter({ hasText: en.common.exported('rounds.csv') })
      .waitFor(WAIT);
  });

  it('opens the round’s details: the card drawn by the game’s renderer, wallet calls, deliveries, a replay link', async () => {
    await page.getByRole('link', { name: en.round.open(roundId) }).click();
    await heading(en.round.title(roundId.slice(0, 8))).waitFor(WAIT);
    expect(await nav(en.nav.rounds).getAttribute('aria-current')).toBe('true');
    const card = page.getByRole('region', { name: en.round.cardTitle });
    await card.locator('canvas').waitFor(WAIT);
    expect(await card.getByRole('alert').isHidden()).toBe(true);
    const wallet = page.getByRole('region', { name: en.round.walletTitle });
    await wallet.getByRole('row', { name: /bet/ }).first().waitFor(WAIT);
    const deliveries = page.getByRole('region', { name: en.round.deliveriesTitle });
    await eventually(async () => {
      if ((await deliveries.getByRole('row', { name: /close-round/ }).count()) > 0) return true;
      await page.reload();
      return false;
    }, 60_000);
    await shoot('panel-round');

    await page.getByRole('button', { name: en.round.replayCreate }).click();
    const url = await page.getByRole('textbox', { name: en.round.replayUrl }).inputValue();
    expect(url.startsWith(`${server.url}/`)).toBe(true);
    const replay = await context.newPage();
    try {
      // The replay page (apps/game's) draws the card with the same renderer, no sign-in needed.
      expect((await replay.goto(url))?.status()).toBe(200);
      await replay.waitForSelector('html[data-drawn="true"]', WAIT);
      expect(await replay.locator('[data-fact="round"]').textContent()).toBe(roundId);
    } finally {
      await replay.close();
    }
  });

  it('says whether the round is in a signed audit anchor, and downloads its proof once it is', async () => {
    const audit = page.getByRole('region', { name: en.round.auditTitle });
    await audit.getByText(en.round.notAnchored).waitFor(WAIT);
    server.clock.advance(60_000); // past the anchoring's settle time
    await server.running.anchoring?.runOnce();
    await page.reload();
    const [download] = await Promise.all([
      page.waitForEvent('download', WAIT),
      audit.getByRole('button', { name: en.round.proofDownload }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`round-${roundId}-proof.json`);
    const proof = JSON.parse(readFileSync(await download.path(), 'utf8'));
    const keys = (await server.deps.store.auditAnchors.keys()).map(({ keyId, publicKey }) => ({
      keyId,
      publicKey,
    }));
    expect(verifyProof(proof, keys)).toEqual({ ok: true });
  });

  it('re-sends the round’s close-round event from its details, under the same webhook-id', async () => {
    const deliveries = page.getByRole('region', { name: en.round.deliveriesTitle });
    const closes = () =>
      operator.events.filter((event) => event.event === 'close-round' && event.payload._id === roundId);
    const before = closes();
    expect(before).toHaveLength(1);
    await deliveries
      .getByRole('button', { name: en.webhooks.resendLabel('close-round', roundId) })
      .first()
      .click();
    await page
      .getByRole('status')
      .filter({ hasText: en.webhooks.resent('close-round', '200') })
      .waitFor(WAIT);
    const after = closes();
    expect(after).toHaveLength(2);
    expect(after[1]?.id).toBe(after[0]?.id);
    expect(await deliveries.getByRole('row', { name: /close-round/ }).count()).toBe(2);
  });

  it('lists the client’s signed audit anchors, reached from the navigation, a page at a time', async () => {
    const anchors = (await server.call('GET', '/v1/audit/anchors', { token: apiTokens })).body.data;
    expect(anchors.length).toBeGreaterThan(0);
    await nav(en.nav.audit).click();
    await heading(en.audit.title).waitFor(WAIT);
    const list = page.getByRole('region', { name: en.audit.title });
    for (const anchor of anchors) {
      const row = list.getByRole('row', { name: new RegExp(anchor.root) });
      await row.waitFor(WAIT);
      const cells = await row.getByRole('cell').allTextContents();
      expect([cells[0], cells[2], cells[3], cells[4]]).toEqual([
        String(anchor.seq),
        String(anchor.count),
        anchor.root,
        anchor.keyId,
      ]);
    }
    const later = page.getByRole('button', { name: en.audit.later });
    expect(await later.isDisabled()).toBe(true); // fewer than a page
    await page.getByLabel(en.audit.fromSeq).fill(String(anchors.length + 1));
    await page.getByRole('button', { name: en.audit.show }).click();
    await page.getByText(en.audit.none).waitFor(WAIT);
    expect(page.url()).toContain(`fromSeq=${anchors.length + 1}`);
    await page.getByRole('button', { name: en.audit.earlier }).click();
    await list.getByRole('row', { name: new RegExp(anchors[0].root) }).waitFor(WAIT);
  });

  it('resolves a round flagged for reconciliation (a bet the wallet took unanswered, whose rollback it declined)', async () => {
    const token = await newSession(server, { tokens: apiTokens, profileId, gameId, webhookId: '' }, 'joao');
    const player = await connectPlayer(server.url, token);
    try {
      operator.failNext('bet', 'ok-then-hang');
      operator.failNext('rollback', 'decline');
      expect((await player.ask('buy')).ok).toBe(false); // after the wallet time-out (5 s)
    } finally {
      player.close();
    }
    await server.running.app.services.play.settleDue();
    await eventually(async () => {
      const flagged = await server.call('GET', '/v1/reconciliation', { token: apiTokens });
      return flagged.body.pagination?.totalCount === 1;
    }, 60_000);

    await nav(en.nav.flagged).click();
    await heading(en.flagged.title).waitFor(WAIT);
    const row = page.getByRole('row', { name: /joao/ });
    await row.waitFor(WAIT);
    expect(await row.textContent()).toContain('declined');
    await row.getByRole('button', { name: en.flagged.resolve }).click();
    await page.getByLabel(en.flagged.resolutions['written-off']).check();
    await page.getByLabel(en.flagged.note).fill('Refunded by hand on the call with the player.');
    await page.getByRole('button', { name: en.flagged.resolve, exact: true }).last().click();
    await page.getByRole('status').filter({ hasText: en.flagged.resolved }).waitFor(WAIT);
    await page.getByText(en.flagged.none).waitFor(WAIT);
  });

  it('shows the day on the overview, and the game’s pool with its commitment', async () => {
    // The overview's "today" is the browser's: make it the service's (its test clock is in March 2026).
    await page.clock.setFixedTime(server.clock());
    await nav(en.nav.overview).click();
    await heading(en.overview.title).waitFor(WAIT);
    const totals = page.getByRole('region', { name: en.overview.totalsOf('BRL') });
    const today = totals.getByRole('row', { name: new RegExp(en.overview.periods.today) });
    await today.waitFor(WAIT);
    expect(await today.getByRole('cell').nth(1).textContent()).toBe('1');
    // The promotions' cost (free cards' prizes, docs/promotions.md) has its column, before the GGR.
    const headers = await totals.getByRole('columnheader').allTextContents();
    expect(headers.indexOf('Promotions’ cost')).toBe(headers.indexOf(en.overview.ggr) - 1);
    await page.getByRole('img', { name: new RegExp(en.overview.chartTitle('BRL')) }).waitFor(WAIT);
    const games = page.getByRole('region', { name: en.overview.gamesOf(en.overview.periods.week) });
    await games.getByRole('row', { name: /frevo-da-sorte v1/ }).waitFor(WAIT);
    await page.getByText(en.overview.flaggedCount(0)).waitFor(WAIT);
    await shoot('panel-overview');

    await nav(en.nav.games).click();
    await page.getByRole('button', { name: en.pools.of('frevo-da-sorte', 1) }).click();
    const pools = page.getByRole('region', { name: en.pools.of('frevo-da-sorte', 1) });
    const pool = pools.getByRole('row', { name: /running/ });
    await pool.waitFor(WAIT);
    expect(await pool.textContent()).toContain(en.pools.drawnOf('1', '100,001'));
  });

  it('shows the webhook’s delivery log with its filters', async () => {
    await nav(en.nav.webhooks).click();
    await page.getByRole('button', { name: en.webhooks.logOf(operator.webhookUrl) }).click();
    const log = page.getByRole('region', { name: en.webhooks.logOf(operator.webhookUrl) });
    await eventually(async () => {
      await page.getByRole('button', { name: en.common.apply }).click();
      return (await log.getByRole('row', { name: /close-round/ }).count()) > 0;
    }, 60_000);
    await page.getByLabel(en.common.status).selectOption('failed');
    await page.getByRole('button', { name: en.common.apply }).click();
    await page.getByText(en.common.none).waitFor(WAIT);
    await page.getByLabel(en.common.status).selectOption('success');
    await page.getByRole('button', { name: en.common.apply }).click();
    await log.getByRole('row', { name: /open-round/ }).waitFor(WAIT);
    // Re-sent from the log: the receiver gets the open-round event again, and the log a new attempt.
    const opens = () => operator.events.filter((event) => event.event === 'open-round').length;
    const before = opens();
    await log.getByRole('button', { name: en.webhooks.resendLabel('open-round', roundId) }).click();
    await page
      .getByRole('status')
      .filter({ hasText: en.webhooks.resent('open-round', '200') })
      .waitFor(WAIT);
    expect(opens()).toBe(before + 1);
    await expect.poll(() => log.getByRole('row', { name: /open-round/ }).count(), WAIT).toBe(2);
    await shoot('panel-webhooks');
  });

  it('rotates the apiKey, shown once: the old key no longer logs in, and the audit log has it', async () => {
    await nav(en.nav.access).click();
    await heading(en.access.title).waitFor(WAIT);
    await page.getByRole('button', { name: en.access.rotate }).click();
    // The box that says what happens must be ticked first: nothing was sent.
    expect(await page.getByLabel(en.access.newKey).count()).toBe(0);
    await page.getByLabel(en.access.understood).check();
    await page.getByRole('button', { name: en.access.rotate }).click();
    const fresh = await page.getByLabel(en.access.newKey).inputValue();
    expect(fresh).not.toBe(apiKey);
    const login = (key: string) => server.call('POST', '/v1/auth/login', { body: { apiKey: key } });
    expect((await login(apiKey)).status).toBe(401);
    expect((await login(fresh)).status).toBe(200);
    const audit = page.getByRole('region', { name: en.access.auditTitle });
    await audit.getByRole('row', { name: /POST \/v1\/auth\/rotate-key/ }).waitFor(WAIT);
    // Both re-sends (from the round and from the log) are in it, done by the panel.
    const resends = audit.getByRole('row', { name: /POST \/v1\/webhook\/:webhookId\/redeliver/ });
    expect(await resends.count()).toBe(2);
    expect(await resends.first().textContent()).toContain(en.access.actors.panel);
    await shoot('panel-access');
  });

  it('speaks Portuguese and Spanish after the switch, and works on a phone', async () => {
    await page.getByLabel(en.lang.label).selectOption('pt');
    await page.getByRole('heading', { level: 1, name: pt.access.title }).waitFor(WAIT);
    await nav(pt.nav.profiles).click();
    await page.getByRole('heading', { level: 1, name: pt.profiles.title }).waitFor(WAIT);
    await page.setViewportSize({ width: 375, height: 740 });
    // Nothing wider than the phone's screen but the tables, which scroll inside their own box.
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(await overflow()).toBeLessThanOrEqual(0);
    // The overview's chart and tables fit too (the tables scroll in their own box).
    await nav(pt.nav.overview).click();
    await page.getByRole('img', { name: new RegExp(pt.overview.chartTitle('BRL')) }).waitFor(WAIT);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await shoot('panel-phone');
    // And a round's details, its card scaled down to the phone's width.
    await page.goto(`${server.url}/panel/round?id=${roundId}`);
    await page.getByRole('region', { name: pt.round.cardTitle }).locator('canvas').waitFor(WAIT);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.setViewportSize(DESKTOP);
    // Spanish, the third language: the same page, then another through the menu.
    await page.getByLabel(pt.lang.label).selectOption('es');
    await heading(es.round.title(roundId.slice(0, 8))).waitFor(WAIT);
    await nav(es.nav.rounds).click();
    await heading(es.rounds.title).waitFor(WAIT);
    await page.getByLabel(es.lang.label).selectOption('en');
    await heading(en.rounds.title).waitFor(WAIT);
    await page.goto(`${server.url}/panel/round?id=${roundId}`);
    await heading(en.round.title(roundId.slice(0, 8))).waitFor(WAIT);
  });

  it('asks to sign in again when the session expires, and comes back to the same page', async () => {
    await nav(en.nav.rounds).click();
    await heading(en.rounds.title).waitFor(WAIT);
    // Its requests answered (the list shows), the session ends while the user reads.
    await page.getByRole('row', { name: /maria@example\.test/ }).waitFor(WAIT);
    server.clock.advance(3 * 3600 * 1000); // past TOKEN_TTL (2 h)
    await page.getByRole('link', { name: en.round.open(roundId) }).click();
    await page.getByText(en.auth.expired).waitFor(WAIT);
    await signIn(PASSWORD);
    // Back on the round it was opening: the page's query (the round's id) came along.
    await heading(en.round.title(roundId.slice(0, 8))).waitFor(WAIT);
    expect(new URL(page.url()).searchParams.get('id')).toBe(roundId);
  });

  it('changes the password, signs out everywhere, and signs in with the new one', async () => {
    await nav(en.nav.account).click();
    await heading(en.auth.changeTitle).waitFor(WAIT);
    await page.getByLabel(en.auth.currentPassword).fill(PASSWORD);
    await page.getByLabel(en.auth.newPassword).fill('a changed password');
    await page.getByLabel(en.auth.again).fill('a changed passwort');
    await page.getByRole('button', { name: en.auth.change }).click();
    await page.getByRole('alert').filter({ hasText: en.auth.differ }).waitFor(WAIT);
    await page.getByLabel(en.auth.again).fill('a changed password');
    await page.getByRole('button', { name: en.auth.change }).click();
    await page.getByText(en.auth.changed).waitFor(WAIT);
    await signIn('a changed password');
    await heading(en.overview.title).waitFor(WAIT);
  });

  it('resets a forgotten password from the e-mailed link, which opens the panel', async () => {
    // Sign-out ends the token set on the service (POST /v1/auth/logout), not only in this tab.
    const tokens = await page.evaluate(() =>
      JSON.parse(sessionStorage.getItem('raspa-panel-tokens') ?? 'null'),
    );
    expect((await server.call('GET', '/v1/profile', { token: tokens })).status).toBe(200);
    await page.getByRole('button', { name: en.nav.signOut }).click();
    await page.getByText(en.auth.signedOut).waitFor(WAIT);
    expect((await server.call('GET', '/v1/profile', { token: tokens })).status).toBe(401);
    expect(await page.evaluate(() => sessionStorage.getItem('raspa-panel-tokens'))).toBeNull();
    await page.getByRole('link', { name: en.auth.forgotLink }).click();
    await heading(en.auth.forgotTitle).waitFor(WAIT);
    await page.getByLabel(en.auth.email).fill(email);
    await solveCaptcha();
    await page.getByRole('button', { name: en.auth.sendLink }).click();
    await page.getByText('a link to reset the password has been sent').waitFor(WAIT);

    const mail = await sink.waitFor((message) => message.to.includes(email), 30_000);
    const link = /href="([^"]+)"/.exec(mail.html)?.[1]?.replaceAll('&amp;', '&') ?? '';
    expect(link.startsWith(`${server.url}/panel/reset-password?token=`)).toBe(true);

    await page.goto(link);
    await heading(en.auth.resetTitle).waitFor(WAIT);
    // The token leaves the address bar (and the history) as soon as the page has read it.
    expect(page.url()).toBe(`${server.url}/panel/reset-password`);
    await page.getByLabel(en.auth.newPassword).fill('reset from the mail');
    await page.getByLabel(en.auth.again).fill('reset from the mail');
    await page.getByRole('button', { name: en.auth.setPassword }).click();
    await page.getByText(en.auth.resetDone).waitFor(WAIT);
    await signIn('reset from the mail');
    await heading(en.overview.title).waitFor(WAIT);
  });

  it('downloads the certification pack of a version whose pool ended, and the pool verifies from it', async () => {
    // Last, as its 100,001 rounds would crowd the lists the tests above read. The game's first pool
    // drawn to its end as the play service records it: its seed is published.
    const game = (await server.deps.store.games.findById(gameId)) as GameRecord;
    await drawPoolTo(server.deps, game, poolPlayer, 0);
    await nav(en.nav.games).click();
    await heading(en.games.title).waitFor(WAIT);
    await page.getByRole('button', { name: en.parSheet.of('frevo-da-sorte', 1) }).click();
    const sheet = page.getByRole('region', { name: en.parSheet.of('frevo-da-sorte', 1) });
    const [download] = await Promise.all([
      page.waitForEvent('download', WAIT),
      sheet.getByRole('button', { name: en.parSheet.pack }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`certification-${gameId}-v1.zip`);
    // What a lab does with it (its VERIFY.md): the seed against the commitment, the pool re-derived.
    const pools = verifyPackPools(readPack(readFileSync(await download.path())));
    expect(pools.map(({ number, verification }) => [number, verification.ok])).toEqual([[1, true]]);
  });

  it('threw no uncaught error in the panel along the way, and asked no third party for anything', () => {
    expect(pageErrors).toEqual([]);
    expect(foreignRequests).toEqual([]);
  });
});
