import { join } from 'node:path';
import { GAME_MODELS, type GameModel } from '@raspa/core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../src/chromium.ts';
import { SCREENSHOT_DIR } from '../src/player-page.ts';
import { type Lang, type Raspa, startRaspa } from '../src/raspa-fixture.ts';

/**
 * The player's page's prize table, for every model, in every language, on a desktop and a phone. Its
 * own file (with its own service and Chromium) so that it runs beside player-page.test.ts in the
 * second test worker rather than after it.
 */

let raspa: Raspa;
let browser: Browser;
let players = 0;

beforeAll(async () => {
  [raspa, browser] = await Promise.all([startRaspa(), launchChromium()]);
});

afterAll(async () => {
  await browser?.close();
  await raspa?.close();
});

describe('the prize table shows every column whole at 1024 wide, for every model', () => {
  /**
   * The widest texts a table can hold: the odds of a level with one winner in 100,001 tickets
   * ("1 in 100,001", "1 em 100.001", "1 en 100.001"), and prizes of a currency with three decimals
   * (KWD) on a large bet, in every language.
   */
  const LANGS: Lang[] = ['en', 'pt', 'es'];
  const DESKTOP_1024 = { name: 'desktop 1024×768', width: 1024, height: 768 };
  const SIZES = [DESKTOP_1024, { name: 'phone 360×640', width: 360, height: 640 }];
  let wide: { profileId: string; games: Map<GameModel, string> } | undefined;

  async function wideGame(model: GameModel): Promise<string> {
    const { server, tokens } = raspa;
    if (!wide) {
      const profile = await server.call('POST', '/v1/profile', {
        token: tokens,
        body: { name: 'Sala do Kuwait', type: 'demo', currency: 'KWD' },
      });
      if (profile.status !== 201) throw new Error(JSON.stringify(profile.body));
      wide = { profileId: profile.body.data.profileId, games: new Map() };
    }
    const known = wide.games.get(model);
    if (known) return known;
    const created = await server.call('POST', '/v1/game', {
      token: tokens,
      body: {
        profileId: wide.profileId,
        gameModel: model,
        lang: 'pt',
        currency: 'KWD',
        rtp: 0.9,
        sampling: 100_001,
        prizedPercent: 0.5,
        betPrice: 100,
        simulation: false,
        replacePreviousVersion: true,
      },
    });
    if (created.status !== 201) throw new Error(JSON.stringify(created.body));
    wide.games.set(model, created.body.data.id);
    return created.body.data.id;
  }

  async function wideSession(gameId: string, lang: Lang): Promise<string> {
    const { server, tokens } = raspa;
    const user = await server.call('POST', '/v1/user/auth', {
      token: tokens,
      body: {
        profileId: wide?.profileId,
        credential: `player-${++players}-table`,
        credentialType: 'username',
      },
    });
    const session = await server.call('POST', '/v1/game/session', {
      token: tokens,
      body: { userToken: user.body.data.userToken, gameId, lang },
    });
    if (session.status !== 201) throw new Error(JSON.stringify(session.body));
    return session.body.data.gameUrl;
  }

  /** Every cell that does not show whole: cut by its own box, by the panel, or by the window. */
  const cutCells = (page: Page) =>
    page.evaluate(() => {
      const table = document.querySelector('table.ladder');
      const side = table?.closest('.side');
      if (!table || !side) return ['no prize table on the page'];
      const panel = side.getBoundingClientRect();
      const problems: string[] = [];
      if (side.scrollWidth > side.clientWidth + 1) {
        problems.push(`the panel scrolls sideways (${side.scrollWidth} > ${side.clientWidth} px)`);
      }
      for (const cell of Array.from(table.querySelectorAll('th, td'))) {
        const box = cell.getBoundingClientRect();
        const text = (cell.textContent ?? '').trim();
        if (cell.scrollWidth > cell.clientWidth + 1) {
          problems.push(`"${text}" overflows its cell (${cell.scrollWidth} > ${cell.clientWidth} px)`);
        }
        if (box.left < panel.left - 1 || box.right > panel.right + 1 || box.right > window.innerWidth + 1) {
          problems.push(
            `"${text}" is cut by the panel or the window (${Math.round(box.left)}–${Math.round(box.right)} px, panel ${Math.round(panel.left)}–${Math.round(panel.right)} px)`,
          );
        }
      }
      return problems;
    });

  it.each(GAME_MODELS)('%s, in en, pt and es, at 1024×768 and on a 360×640 phone', async (model) => {
    const context = await browser.newContext({
      viewport: { width: DESKTOP_1024.width, height: DESKTOP_1024.height },
    });
    try {
      const gameId = await wideGame(model);
      const problems: string[] = [];
      let longestOdds = '';
      for (const lang of LANGS) {
        const page = await context.newPage();
        await page.goto(await wideSession(gameId, lang));
        // Bounded by the test's time-out only: a loaded machine may take long to draw the first card.
        await page.waitForFunction(() => document.documentElement.dataset.firstCard !== undefined, null, {
          timeout: 0,
        });
        for (const size of SIZES) {
          await page.setViewportSize(size);
          await page.waitForFunction((width) => window.innerWidth === width, size.width);
          // On a phone the table is in a drawer, opened with the "Prizes" button.
          const toggle = page.locator('.prizes-toggle');
          if (await toggle.isVisible()) {
            if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
            await page.waitForFunction(() => document.documentElement.querySelector('.prizes-open') !== null);
          }
          await page.locator('table.ladder').waitFor({ state: 'visible' });
          for (const problem of await cutCells(page)) problems.push(`${lang}, ${size.name}: ${problem}`);
          if (size === DESKTOP_1024) {
            await page.screenshot({ path: join(SCREENSHOT_DIR, `prize-table-${model}-${lang}-1024.png`) });
          }
        }
        const odds = await page.locator('table.ladder td.odds').allTextContents();
        longestOdds = odds.reduce((a, b) => (b.length > a.length ? b : a), longestOdds);
        await page.close();
      }
      expect(longestOdds).toMatch(/^1 (in|em|en) [\d.,]+$/); // the odds were on the table
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
