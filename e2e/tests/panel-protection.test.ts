import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '../../apps/panel/src/i18n/en.ts';
import {
  LOCAL_INTEGRATION,
  startTestServer,
  type TestServer,
  type TokenSet,
} from '../../apps/server/test/harness.ts';
import {
  connectPlayer,
  type GameSetup,
  seatPlayer,
  setUpOperatorGame,
} from '../../apps/server/test/play-fixtures.ts';
import { startTestOperator, type TestOperator } from '../../apps/server/test/test-operator.ts';
import { launchChromium } from '../src/chromium.ts';
import { signIn } from '../src/panel-sign-in.ts';

/**
 * A player's page and the promotions, in Debian's Chromium against a real service (SQLite) and a real
 * HTTP wallet on 127.0.0.1: a wager limit set and its usage read after a card, a raise shown waiting
 * 24 hours; an operator exclusion set and lifted; a live session listed and ended after a confirmation
 * (its socket told and closed); a promotion created from pasted ids, listed, then cancelled after a
 * confirmation. Each write is checked on the service too.
 *
 * PANEL_SCREENSHOTS=docs/screenshots writes the back-office doc's screenshots of these pages.
 */

const PASSWORD = 'correct horse battery';
const WAIT = { timeout: 30_000 };
const DAY_MS = 86_400_000;
const SHOTS = process.env.PANEL_SCREENSHOTS;

let server: TestServer;
let operator: TestOperator;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let tokens: TokenSet;
let setup: GameSetup;
let ana: { playerId: string; token: string };
let bia: { playerId: string };
let roundId = '';

async function shoot(name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

const heading = (text: string) => page.getByRole('heading', { level: 1, name: text });
const nav = (name: string) => page.getByRole('navigation').getByRole('link', { name, exact: true });
const status = (text: string) => page.getByRole('status').filter({ hasText: text }).first();
const wagerPerDay = en.player.limitName(en.player.types.wager, en.player.periods.day, 'BRL');

beforeAll(async () => {
  [operator, browser] = await Promise.all([startTestOperator({ startCents: 100_000 }), launchChromium()]);
  server = await startTestServer({ env: LOCAL_INTEGRATION });
  const client = await server.newClient('Casa Lotérica');
  tokens = client.tokens;
  setup = await setUpOperatorGame(server, operator, { betPrice: 1 }, tokens);
  [ana, bia] = await Promise.all([seatPlayer(server, setup, 'ana'), seatPlayer(server, setup, 'bia')]);
  // One card bought by ana: R$1.00 wagered today.
  const player = await connectPlayer(server.url, ana.token);
  try {
    const bought = await player.ask('buy');
    if (!bought.ok) throw new Error(`buy refused: ${JSON.stringify(bought)}`);
    roundId = bought.data.round.roundId as string;
    await player.ask('reveal', { roundId });
  } finally {
    player.close();
  }
  context = await browser.newContext({ viewport: { width: 1280, height: 860 }, locale: 'en-US' });
  page = await context.newPage();
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  // The dates the panel checks are the browser's: make them the service's (its test clock is fixed).
  await page.clock.setFixedTime(server.clock());
  await page.goto(`${server.url}/panel/`);
  await signIn(page, client.email, PASSWORD);
  await heading(en.overview.title).waitFor(WAIT);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.close();
  await operator?.close();
});

describe("a player's page and the promotions, in a real browser against a real service", () => {
  it('sets a wager limit and shows its usage; a raise waits 24 hours, shown with when it applies', async () => {
    await nav(en.nav.players).click();
    await page.getByRole('link', { name: en.players.open('ana') }).click();
    await heading(en.player.title('ana')).waitFor(WAIT);
    await page.getByRole('link', { name: en.round.open(roundId) }).waitFor(WAIT);

    const limits = page.getByRole('region', { name: en.player.limitsTitle });
    await limits.getByText(en.player.noLimits).waitFor(WAIT);
    await limits.getByRole('button', { name: en.player.addLimit }).click();
    const row = limits.getByRole('group', { name: `${en.player.limit} 1` });
    await row.getByLabel(en.player.type).selectOption('wager');
    await row.getByLabel(en.player.amount).fill('10');
    await limits
      .getByText(en.player.changeTo(wagerPerDay, en.player.minutesNone, 'R$10.00', en.player.atOnce))
      .waitFor(WAIT);
    await limits.getByRole('button', { name: en.player.saveLimits }).click();
    await status(en.player.limitsSaved).waitFor(WAIT);
    const inForce = limits.getByRole('row', { name: new RegExp(wagerPerDay.replace(/[()]/g, '\\$&')) });
    await expect.poll(() => inForce.textContent(), WAIT).toContain('R$1.00'); // used: the card bought
    expect(await inForce.textContent()).toContain('R$10.00');

    await limits
      .getByRole('group', { name: `${en.player.limit} 1` })
      .getByLabel(en.player.amount)
      .fill('20');
    await limits
      .getByText(en.player.changeTo(wagerPerDay, 'R$10.00', 'R$20.00', en.player.after24h))
      .waitFor(WAIT);
    await limits.getByRole('button', { name: en.player.saveLimits }).click();
    await status(en.player.limitsSaved).waitFor(WAIT);
    const appliesAt = new Date(server.clock().getTime() + DAY_MS).toISOString();
    await limits
      .getByTestId('pending-limits')
      .getByText(/R\$20\.00 from /)
      .waitFor(WAIT);
    await shoot('panel-player');

    const stored = (await server.call('GET', `/v1/user/${ana.playerId}/limits`, { token: tokens })).body.data;
    expect(stored.limits).toEqual([{ type: 'wager', period: 'day', currency: 'BRL', amount: 10 }]);
    expect(stored.usage[0]).toMatchObject({ used: 1 });
    expect(stored.pending.limits).toEqual([
      { type: 'wager', period: 'day', currency: 'BRL', amount: 20, appliesAt },
    ]);
  });

  it('sets an operator exclusion indefinitely, then lifts it after asking', async () => {
    const exclusion = page.getByRole('region', { name: en.player.exclusionTitle });
    await exclusion.getByText(en.player.notExcluded).waitFor(WAIT);
    await exclusion.getByLabel(en.player.indefinitely).check();
    await exclusion.getByRole('button', { name: en.player.exclude, exact: true }).click();
    await exclusion.getByText(en.player.excludedForever(en.player.excludedBy.operator)).waitFor(WAIT);
    const held = await server.call('GET', `/v1/user/${ana.playerId}/exclusion`, { token: tokens });
    expect(held.body.data).toMatchObject({ reason: 'operator', until: null });

    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.accept();
    });
    await exclusion.getByRole('button', { name: en.player.lift }).click();
    await status(en.player.lifted).waitFor(WAIT);
    await exclusion.getByText(en.player.notExcluded).waitFor(WAIT);
    expect(asked).toEqual([en.player.confirmLift]);
    expect(
      (await server.call('GET', `/v1/user/${ana.playerId}/exclusion`, { token: tokens })).body.data,
    ).toBeNull();
  });

  it('lists a live session and ends it after asking: its page is told and closed, the list empties', async () => {
    // The exclusion above ended ana's first session; a new one, its page connected.
    const seat = await seatPlayer(server, setup, 'ana');
    const player = await connectPlayer(server.url, seat.token);
    const told = new Promise<unknown>((resolve) => player.socket.once('session-ended', resolve));
    try {
      const sessions = page.getByRole('region', { name: en.player.sessionsTitle, exact: true }).first();
      await sessions.getByRole('button', { name: en.player.refreshSessions }).click();
      const end = sessions.getByRole('button', { name: /^End the session of oxe-ganhei v1 started / });
      await end.waitFor(WAIT);
      const asked: string[] = [];
      page.once('dialog', (dialog) => {
        asked.push(dialog.message());
        void dialog.accept();
      });
      await end.click();
      await status(en.player.sessionEnded).waitFor(WAIT);
      await sessions.getByText(en.player.noSessions).waitFor(WAIT);
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatch(
        /^End the session of oxe-ganhei v1 started .+\? The player’s page closes at once/,
      );
      expect(await told).toMatchObject({ code: 'SESSION_ENDED' });
      const live = await server.call('GET', `/v1/user/${ana.playerId}/sessions`, { token: tokens });
      expect(live.body.data).toEqual([]);
      expect(await server.running.app.services.play.buy(seat.sessionId)).toEqual({
        ok: false,
        code: 'SESSION_ENDED',
      });
    } finally {
      player.close();
    }
  });

  it('creates a promotion from pasted ids and lists it; its page cancels it after asking', async () => {
    await nav(en.nav.promotions).click();
    await heading(en.promotions.title).waitFor(WAIT);
    await page.getByText(en.promotions.none).waitFor(WAIT);
    const form = page.locator('form', {
      has: page.getByRole('heading', { name: en.promotions.createTitle }),
    });
    await form.getByLabel(en.promotions.name).fill('Welcome');
    await form.getByLabel(en.promotions.cardsPerPlayer).fill('2');
    const expireAt = new Date(server.clock().getTime() + 7 * DAY_MS).toISOString().slice(0, 16);
    await form.getByLabel(en.promotions.expireAtInput).fill(expireAt);
    await form
      .getByLabel(en.promotions.playerIds)
      .fill(`${ana.playerId}\n\n${bia.playerId}\n${ana.playerId}\n`);
    await form.getByText(en.promotions.idsSummary('2', 1, 1)).waitFor(WAIT);
    await form.getByRole('button', { name: en.promotions.create }).click();
    await status(en.promotions.created('Welcome')).waitFor(WAIT);

    const listed = page.getByRole('row', { name: /Welcome/ });
    await listed.waitFor(WAIT);
    expect(await listed.textContent()).toContain(en.promotions.statuses.active);
    await shoot('panel-promotions');
    const [promotion] = (await server.call('GET', '/v1/promotion', { token: tokens })).body.data;
    expect(promotion).toMatchObject({ name: 'Welcome', players: 2, granted: 4, used: 0, status: 'active' });
    expect(promotion.expireAt).toBe(`${expireAt}:00.000Z`);

    await listed.getByRole('link', { name: en.promotions.open('Welcome') }).click();
    await heading(en.promotions.detailTitle('Welcome')).waitFor(WAIT);
    expect(await page.locator('[data-figure="granted"] dd').textContent()).toBe('4');
    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.accept();
    });
    await page.getByRole('button', { name: en.promotions.cancel }).click();
    await status(en.promotions.cancelled).waitFor(WAIT);
    await page.getByText(en.promotions.closed).waitFor(WAIT);
    expect(asked).toEqual([en.promotions.confirmCancel('Welcome')]);
    const cancelled = await server.call('GET', `/v1/promotion/${promotion.promotionId}`, { token: tokens });
    expect(cancelled.body.data.status).toBe('cancelled');
  });
});
