import { join } from 'node:path';
import { toMinor } from '@raspa/core';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createI18n } from '../../apps/game/src/i18n/i18n.ts';
import { REPLAY_STRINGS } from '../../apps/game/src/replay/replay-strings.ts';
import { connectPlayer } from '../../apps/server/test/play-fixtures.ts';
import { launchChromium } from '../src/chromium.ts';
import { SCREENSHOT_DIR } from '../src/player-page.ts';
import { type Raspa, startRaspa } from '../src/raspa-fixture.ts';

/**
 * The replay page of docs/contract.md §11 in Debian's Chromium: a round really played (a winning
 * card, bought and revealed through the play protocol), its replay link opened as support would, the
 * card drawn by the player's page's renderer with its prize and times, the token gone from the
 * address bar; once the link has expired, the page says so and its data is a 404.
 */

let raspa: Raspa;
let browser: Browser;

beforeAll(async () => {
  [raspa, browser] = await Promise.all([startRaspa(), launchChromium()]);
});

afterAll(async () => {
  await browser?.close();
  await raspa?.close();
});

describe('the replay page', () => {
  it('draws a played round’s card with its prize, then says when the link has expired', async () => {
    const gameId = await raspa.createGame('oxe-ganhei');
    await raspa.steer(gameId, 'win');
    const gameUrl = await raspa.newSession(gameId, 'replayed-player', 'pt');
    const player = await connectPlayer(raspa.server.url, new URL(gameUrl).searchParams.get('token') ?? '');
    let roundId: string;
    try {
      const bought = await player.ask('buy');
      if (!bought.ok) throw new Error(JSON.stringify(bought));
      roundId = bought.data.round.roundId;
      const revealed = await player.ask('reveal', { roundId });
      if (!revealed.ok) throw new Error(JSON.stringify(revealed));
    } finally {
      player.close();
    }
    const round = (await raspa.server.call('GET', `/v1/round/${roundId}`, { token: raspa.tokens })).body.data;
    expect(round.prize).toBeGreaterThan(0);
    const issued = await raspa.server.call('POST', `/v1/round/${roundId}/replay`, {
      token: raspa.tokens,
      body: {},
    });
    expect(issued.status).toBe(201);
    const { url, dataUrl } = issued.body.data;

    // A support person whose browser asks for Portuguese: the expired page has no game to take its language from.
    const context = await browser.newContext({ viewport: { width: 420, height: 900 }, locale: 'pt-BR' });
    try {
      const page = await context.newPage();
      const opened = await page.goto(url);
      expect(opened?.status()).toBe(200);
      expect(opened?.headers()['referrer-policy']).toBe('no-referrer');
      await page.waitForSelector('html[data-drawn="true"]', { timeout: 60_000 });
      // The token left the address bar; the page speaks the game's language (pt).
      expect(new URL(page.url()).pathname).toBe('/replay/');
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('pt');
      const pt = REPLAY_STRINGS.pt;
      expect(await page.locator('h1').textContent()).toBe(pt.title);
      const prize = toMinor(round.prize, 'BRL');
      if (!prize.ok) throw new Error(prize.message);
      const money = createI18n('pt', 'BRL').money(prize.minor);
      expect(await page.locator('[data-fact="prize"]').textContent()).toBe(money);
      expect(await page.locator('[data-fact="round"]').textContent()).toBe(roundId);
      expect(await page.locator('[data-fact="status"]').textContent()).toBe(pt.status_closed);
      expect(await page.locator('[data-fact="ended"]').textContent()).toContain('UTC');
      const canvas = page.locator('figure.replay-card canvas');
      const box = await canvas.boundingBox();
      expect(box?.width).toBeGreaterThan(100);
      expect(box?.height).toBeGreaterThan(100);
      expect(await page.locator('figure.replay-card').getAttribute('aria-label')).toContain(money);
      await page.screenshot({ path: join(SCREENSHOT_DIR, 'replay-page.png'), fullPage: true });

      raspa.server.clock.advance(15 * 60_000 + 1);
      const expired = await page.goto(url);
      expect(expired?.status()).toBe(404);
      await page.waitForSelector('html[data-replay="expired"]');
      expect(await page.locator('h1').textContent()).toBe(pt.expiredTitle);
      expect(await page.locator('canvas').count()).toBe(0);
      const data = await fetch(dataUrl);
      expect(data.status).toBe(404);
      expect((await data.json()).code).toBe('NOT_FOUND');
    } finally {
      await context.close();
    }
  });
});
