import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildLadder,
  gameCreateData,
  type Ladder,
  type LadderInput,
  ladderStats,
  PLAYER_RESULTS_DEFAULTS,
  playerResults,
  seededRng,
} from '@raspa/core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TokenSet } from '../../apps/server/test/harness.ts';
import { launchChromium } from '../src/chromium.ts';
import { SCREENSHOT_DIR } from '../src/player-page.ts';
import { type SandboxSite, startSandboxSite } from '../src/sandbox-site.ts';

/**
 * The designer's sandbox, built and served as static files, in Debian's Chromium: inputs change
 * the ladder and the charts at once, a pool plays to the end in a worker, the card preview draws,
 * and the exported body, signed by the page, is accepted by a running service that answers with
 * the very ladder the page showed; the exported PAR sheet is the one the service answers for it.
 */

let site: SandboxSite;
let server: TestServer;
let browser: Browser;
let page: Page;
let tokens: TokenSet;
let profileId: string;
const figures: string[] = [];

const A = '[data-panel="A"]';
const BASE: LadderInput = {
  gameModel: 'oxe-ganhei',
  currency: 'BRL',
  rtp: 0.9,
  sampling: 1_000_000,
  prizedPercent: 0.3,
  betPrice: 2,
};

function ladderOf(input: Partial<LadderInput>): Ladder {
  const result = buildLadder({ ...BASE, ...input });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.ladder;
}

/** "R$57,719.13" → 5771913, "−R$3.50" → -350 (BRL: two decimals; the page writes a true minus sign). */
const minorOf = (text: string) =>
  (/^[-\u2212]/.test(text.trim()) ? -1 : 1) * Number(text.replace(/[^\d]/g, ''));
const countOf = (text: string) => Number(text.replace(/[^\d]/g, ''));

/** The ladder table as the page shows it, read back into numbers. */
async function shownLevels(panel = A) {
  const rows = await page.locator(`${panel} table[data-ladder] tbody tr`).evaluateAll((trs) =>
    trs.map((tr) => {
      const cell = (col: string) => tr.querySelector(`[data-col="${col}"]`)?.textContent ?? '';
      return {
        level: Number(tr.getAttribute('data-level')),
        winners: cell('winners'),
        prize: cell('prize'),
        total: cell('totalPrize'),
      };
    }),
  );
  return rows.map((row) => ({
    level: row.level,
    winners: countOf(row.winners),
    prize: minorOf(row.prize),
    totalPrize: minorOf(row.total),
  }));
}

const levelsOf = (ladder: Ladder) =>
  ladder.levels.map(({ level, winners, prize, totalPrize }) => ({ level, winners, prize, totalPrize }));

const moneyShares = (panel = A) => page.getAttribute(`${panel} svg[data-chart="money"]`, 'data-shares');
const expectedShares = (ladder: Ladder) => {
  const paid = ladderStats(ladder).totalPaid;
  return ladder.levels.map((level) => (level.totalPrize / paid).toFixed(6)).join(' ');
};

beforeAll(async () => {
  [site, server, browser] = await Promise.all([startSandboxSite(), startTestServer(), launchChromium()]);
  ({ tokens } = await server.newClient('Sandbox designer'));
  const profile = await server.call('POST', '/v1/profile', {
    token: tokens,
    body: { name: 'Sandbox', type: 'demo', currency: 'BRL' },
  });
  if (profile.status !== 201) throw new Error(JSON.stringify(profile.body));
  profileId = profile.body.data.profileId;
  page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
  page.on('pageerror', (error) => figures.push(`page error: ${error.message}`));
  if (site.buildMs) figures.push(`vite build of the sandbox: ${(site.buildMs / 1000).toFixed(1)} s`);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await site?.close();
  if (figures.length)
    console.log(
      ['', "The designer's sandbox in headless Chromium:", ...figures.map((f) => `  ${f}`), ''].join('\n'),
    );
});

describe("the designer's sandbox", () => {
  it('shows the ladder of the link, and the ladder, its messages and its charts follow every keystroke', async () => {
    await page.goto(
      `${site.url}?model=oxe-ganhei&currency=BRL&rtp=0.9&sampling=1000000&prized=0.3&bet=2&lang=pt`,
    );
    const first = ladderOf({});
    expect(await shownLevels()).toEqual(levelsOf(first));
    expect(await moneyShares()).toBe(expectedShares(first));
    expect(await page.textContent(`${A} [data-figure="overall-odds"] .tile-value`)).toBe('1 in 3.33');

    await page.selectOption(`${A} select[data-field="model"]`, 'trem-de-ouro-v3');
    const express = ladderOf({ gameModel: 'trem-de-ouro-v3' });
    expect(await shownLevels()).toEqual(levelsOf(express));
    expect(await moneyShares()).toBe(expectedShares(express));

    // A value out of bounds: the core's own message under the field, the last ladder kept but dimmed.
    await page.fill(`${A} [data-field="rtp"]`, '0.97');
    expect(await page.textContent(`${A} [data-problem="rtp"]`)).toBe(
      'rtp must be a number between 0.50 and 0.95',
    );
    expect(await page.getAttribute(`${A} [data-field="rtp"]`, 'aria-invalid')).toBe('true');
    expect(await page.getAttribute(`${A} .figures`, 'class')).toContain('stale');
    // A combination that cannot work is explained under the form.
    await page.fill(`${A} [data-field="rtp"]`, '0.5');
    await page.fill(`${A} [data-field="sampling"]`, '100001');
    await page.fill(`${A} [data-field="prizedPercent"]`, '1');
    await page.fill(`${A} [data-field="betPrice"]`, '0.01');
    expect(await page.textContent(`${A} .ladder-problem`)).toMatch(
      /^the prize budget .* raise betPrice or rtp, or lower prizedPercent$/,
    );

    await page.fill(`${A} [data-field="rtp"]`, '0.92');
    await page.fill(`${A} [data-field="sampling"]`, '1 000 000');
    await page.fill(`${A} [data-field="prizedPercent"]`, '0.25');
    await page.fill(`${A} [data-field="betPrice"]`, '2.50');
    const tuned = ladderOf({ gameModel: 'trem-de-ouro-v3', rtp: 0.92, prizedPercent: 0.25, betPrice: 2.5 });
    expect(await page.isHidden(`${A} [data-problem="rtp"]`)).toBe(true);
    expect(await page.getAttribute(`${A} .figures`, 'class')).not.toContain('stale');
    expect(await shownLevels()).toEqual(levelsOf(tuned));
    expect(await moneyShares()).toBe(expectedShares(tuned));
    expect(await page.textContent(`${A} [data-figure="realised-rtp"] .tile-value`)).toBe(
      ladderStats(tuned).realisedRtp.toFixed(6),
    );

    // The player results: the core's figures for 100 cards and seed 1, as `pnpm ladder --simulate 100` prints them.
    const players = playerResults(tuned, 100, PLAYER_RESULTS_DEFAULTS.trials, seededRng(1));
    await page.waitForFunction(
      ([panel, median]) =>
        document.querySelector(`${panel} svg[data-chart="results"]`)?.getAttribute('data-median') === median,
      [A, String(players.median)] as const,
    );
    expect(minorOf((await page.textContent(`${A} [data-figure="median"] .tile-value`)) ?? '')).toBe(
      players.median,
    );
    expect(await page.textContent(`${A} [data-figure="ahead"] .tile-value`)).toBe(
      `${(players.aheadChance * 100).toFixed(2)}%`,
    );
    const shownPercentiles = await page.locator(`${A} [data-percentiles] td`).allTextContents();
    expect(shownPercentiles.map(minorOf)).toEqual(players.percentiles.map((p) => p.net));
    expect(await page.textContent(`${A} .players .command`)).toBe(
      'pnpm ladder --model trem-de-ouro-v3 --rtp 0.92 --sampling 1000000 --prized 0.25 --bet 2.5 --currency BRL --simulate 100 --seed 1',
    );

    // The state is in the URL.
    const query = new URL(page.url()).searchParams;
    expect(Object.fromEntries(query)).toMatchObject({
      model: 'trem-de-ouro-v3',
      rtp: '0.92',
      sampling: '1 000 000',
      bet: '2.50',
    });
  });

  it('plays a 1,000,000-ticket pool to the end in a worker, then cancels and replays a 10,000,000-ticket one', async () => {
    const ladder = ladderOf({ gameModel: 'trem-de-ouro-v3', rtp: 0.92, prizedPercent: 0.25, betPrice: 2.5 });
    const pool = `${A} .pool`;
    await page.click(`${pool} [data-action="simulate"]`);
    const started = Date.now();
    await page.waitForSelector(`${pool}[data-state="done"]`, { timeout: 60_000 });
    figures.push(`1,000,000-ticket pool played in the worker, click to done: ${Date.now() - started} ms`);
    expect(await page.getAttribute(pool, 'data-drawn')).toBe('1000000');
    expect(await page.getAttribute(`${pool} svg[data-chart="rtp"]`, 'data-points')).toBe('200');
    expect(await page.getAttribute(`${pool} svg[data-chart="rtp"]`, 'data-last')).toBe(
      ladderStats(ladder).realisedRtp.toFixed(6),
    );
    expect(await page.textContent(`${pool} .status`)).toMatch(/^1,000,000 of 1,000,000 tickets drawn in /);
    expect(await page.textContent(`${pool} figcaption`)).toContain(
      'exactly the ladder’s winners of every level',
    );
    expect(
      minorOf((await page.getAttribute(`${pool} [data-figure="pool-paid"] .tile-value`, 'title')) ?? ''),
    ).toBe(ladderStats(ladder).totalPaid);

    // Changing an input marks the run stale; a 10,000,000-ticket pool can be cancelled half-way.
    await page.fill(`${A} [data-field="sampling"]`, '10000000');
    expect(await page.getAttribute(pool, 'data-state')).toBe('stale');
    await page.click(`${pool} [data-action="simulate"]`);
    // Cancel from inside the page, in the same task as the first progress update: a click sent
    // from here after polling could arrive after a fast machine has finished the whole pool.
    await page.evaluate(
      (selector) =>
        new Promise<void>((resolve, reject) => {
          const section = document.querySelector(selector) as HTMLElement;
          const observer = new MutationObserver(() => check());
          const check = () => {
            const state = section.dataset.state;
            if (state === 'running' && Number(section.dataset.drawn) > 0) {
              observer.disconnect();
              (section.querySelector('[data-action="cancel"]') as HTMLButtonElement).click();
              resolve();
            } else if (state === 'done' || state === 'failed') {
              observer.disconnect();
              reject(new Error(`the pool ended (${state}) before its first progress update`));
            }
          };
          observer.observe(section, { attributes: true });
          check();
        }),
      pool,
    );
    await page.waitForSelector(`${pool}[data-state="cancelled"]`);
    expect(Number(await page.getAttribute(pool, 'data-drawn'))).toBeLessThan(10_000_000);

    await page.click(`${pool} [data-action="simulate"]`);
    await page.waitForSelector(`${pool}[data-state="done"]`, { timeout: 150_000 });
    expect(await page.getAttribute(pool, 'data-drawn')).toBe('10000000');
    figures.push(
      `10,000,000-ticket pool in the worker: ${(await page.textContent(`${pool} .status`))?.trim()}`,
    );
  });

  it("draws the card of each level with the player's page renderer", async () => {
    const preview = `${A} .preview`;
    await page.locator(preview).scrollIntoViewIfNeeded();
    await page.waitForSelector(`${preview}[data-state="drawn"]`, { timeout: 20_000 });
    await page.click(`${preview} button[data-level="8"]`);
    await page.waitForSelector(`${preview}[data-level="8"]`);
    expect(await page.getAttribute(preview, 'data-model')).toBe('trem-de-ouro-v3');
    const canvas = page.locator(`${preview} .card-canvas canvas`);
    const box = await canvas.boundingBox();
    expect(box?.width).toBeGreaterThan(200);
    const shot = await canvas.screenshot({ path: join(SCREENSHOT_DIR, 'sandbox-card-level-8.png') });
    expect(shot.length).toBeGreaterThan(20_000); // a drawn card, not a blank canvas
    await page.click(`${preview} button[data-level="0"]`);
    await page.waitForSelector(`${preview}[data-level="0"]`);
  });

  it('exports a body, signed in the page, that the running service accepts and answers with the same ladder', async () => {
    await page.fill(`${A} [data-field="sampling"]`, '1000000');
    const shown = await shownLevels();
    const exportBox = `${A} .export`;
    await page.fill(`${exportBox} input[name="profileId"]`, profileId);
    await page.fill(`${exportBox} input[name="signatureToken"]`, tokens.signatureToken);
    await page.waitForSelector(`${exportBox} [data-export="signature"][data-signature]`);
    const body = JSON.parse((await page.textContent(`${exportBox} [data-export="body"]`)) ?? '');
    const signature =
      (await page.getAttribute(`${exportBox} [data-export="signature"]`, 'data-signature')) ?? '';
    expect(body).toEqual({
      profileId,
      gameModel: 'trem-de-ouro-v3',
      lang: 'pt',
      currency: 'BRL',
      rtp: 0.92,
      sampling: 1_000_000,
      prizedPercent: 0.25,
      betPrice: 2.5,
      simulation: true,
      replacePreviousVersion: false,
    });
    expect(await page.textContent(`${exportBox} [data-export="curl"]`)).toContain(`SIGNATURE=${signature}`);

    const answer = await server.call('POST', '/v1/game', { token: tokens, body, sign: signature });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual(
      JSON.parse((await page.textContent(`${exportBox} [data-export="answer"]`)) ?? ''),
    );
    const ladder = ladderOf({ gameModel: 'trem-de-ouro-v3', rtp: 0.92, prizedPercent: 0.25, betPrice: 2.5 });
    expect(answer.body.data).toEqual(gameCreateData(ladder, { id: null, version: null, active: false }));
    // The same ladder as the table on the page, level by level (the answer is in major units).
    expect(
      answer.body.data.levels.map(
        (level: { level: number; winners: number; prize: number; totalPrize: number }) => ({
          level: level.level,
          winners: level.winners,
          prize: Math.round(level.prize * 100),
          totalPrize: Math.round(level.totalPrize * 100),
        }),
      ),
    ).toEqual(shown);
    // A simulation stores nothing.
    const games = await server.call('GET', `/v1/game?profileId=${profileId}`, { token: tokens });
    expect(games.body.data).toEqual([]);
  });

  it('exports the model’s PAR sheet, JSON and CSV, as the service answers it for a version of the same configuration', async () => {
    // The configuration the panel shows now, stored as a real version this time.
    const body = JSON.parse((await page.textContent(`${A} .export [data-export="body"]`)) ?? '');
    const created = await server.call('POST', '/v1/game', {
      token: tokens,
      body: { ...body, profileId, simulation: false },
    });
    expect(created.status).toBe(201);
    const { id: gameId, version } = created.body.data;
    const path = `/v1/game/${gameId}/par-sheet`;
    const json = (await server.call('GET', path, { token: tokens })).body.data;
    const csv = (await server.call('GET', path, { token: tokens, headers: { accept: 'text/csv' } })).body;

    const saved = async (action: string) => {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.click(`${A} .export [data-action="${action}"]`),
      ]);
      return { name: download.suggestedFilename(), text: readFileSync(await download.path(), 'utf8') };
    };
    const sheetJson = await saved('par-sheet-json');
    expect(sheetJson.name).toBe('par-sheet-trem-de-ouro-v3.json');
    expect(JSON.parse(sheetJson.text)).toEqual({ ...json, gameId: null, version: null });
    const sheetCsv = await saved('par-sheet-csv');
    expect(sheetCsv.name).toBe('par-sheet-trem-de-ouro-v3.csv');
    expect(sheetCsv.text).toBe(
      csv.replace(`gameId,${gameId}\r\n`, 'gameId,\r\n').replace(`version,${version}\r\n`, 'version,\r\n'),
    );
  });

  it('compares two configurations, imports a body into one, and restores both from the link', async () => {
    await page.click('[data-action="compare"]');
    const B = '[data-panel="B"]';
    await page.waitForSelector(`${B} table[data-ladder]`);
    expect(await shownLevels(B)).toEqual(await shownLevels());
    const imported = {
      profileId: 'p',
      gameModel: 'fera-sortuda',
      lang: 'es',
      currency: 'BRL',
      rtp: 0.95,
      sampling: 2_000_000,
      prizedPercent: 0.2,
      betPrice: 1,
      simulation: true,
      replacePreviousVersion: false,
    };
    await page.fill(`${B} textarea[data-import]`, JSON.stringify(imported));
    await page.click(`${B} [data-action="import"]`);
    const fera = ladderOf({
      gameModel: 'fera-sortuda',
      rtp: 0.95,
      sampling: 2_000_000,
      prizedPercent: 0.2,
      betPrice: 1,
    });
    expect(await shownLevels(B)).toEqual(levelsOf(fera));
    expect(await page.inputValue(`${B} select[data-field="lang"]`)).toBe('es');
    expect(await page.getAttribute(`${B} .field[data-for="rtp"]`, 'class')).toContain('differs');
    await page.fill(`${B} textarea[data-import]`, '{"gameModel": "slot"}');
    await page.click(`${B} [data-action="import"]`);
    expect(await page.textContent(`${B} .export [role="alert"]`)).toMatch(
      /^Cannot import: gameModel: not a game model; currency is required/,
    );

    await page.waitForFunction(() => location.search.includes('b.model=fera-sortuda'));
    const link = page.url();
    await page.evaluate(() => {
      window.scrollTo(0, 0);
      return new Promise((painted) => requestAnimationFrame(() => requestAnimationFrame(painted)));
    });
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'sandbox-compare.png') });
    const phone = await browser.newPage({
      viewport: { width: 360, height: 740 },
      isMobile: true,
      hasTouch: true,
    });
    await phone.goto(link);
    await phone.waitForSelector(`${B} table[data-ladder]`);
    expect(await phone.inputValue(`${A} [data-field="rtp"]`)).toBe('0.92');
    expect(await phone.inputValue(`${B} select[data-field="model"]`)).toBe('fera-sortuda');
    // Fits a phone: nothing wider than the screen.
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await phone.screenshot({ path: join(SCREENSHOT_DIR, 'sandbox-phone.png') });
    await phone.close();
    expect(figures.filter((line) => line.startsWith('page error'))).toEqual([]);
  });
});
