import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, CDPSession, Frame, Page } from 'playwright-core';

/**
 * This run's own folder for what the browser tests leave (screenshots, figures): runs at the same time
 * (another checkout, another test file) do not overwrite each other's files.
 */
export const OUTPUT_DIR = mkdtempSync(join(tmpdir(), 'raspa-e2e-'));
/** Where the tests save their screenshots (RASPA_SCREENSHOTS to choose, e.g. docs/screenshots). */
export const SCREENSHOT_DIR = process.env.RASPA_SCREENSHOTS ?? join(OUTPUT_DIR, 'screenshots');
mkdirSync(SCREENSHOT_DIR, { recursive: true });

export interface HostMessage {
  origin: string;
  data: { source?: string; type?: string; roundId?: string; won?: boolean; prize?: number; balance?: number };
}

export interface Framed {
  page: Page;
  frame: Frame;
}

/** Opens the operator's page framing a gameUrl, and waits until the player's page has drawn its first card. */
export async function openFramed(context: BrowserContext, url: string): Promise<Framed> {
  const page = await context.newPage();
  await page.goto(url);
  const handle = await page.waitForSelector('iframe');
  const frame = await handle.contentFrame();
  if (!frame) throw new Error('the game frame did not load');
  // A bound for a loaded machine, above the tests' 20 s sanity cap on the first card.
  await frame.waitForFunction(() => document.documentElement.dataset.firstCard !== undefined, null, {
    timeout: 30_000,
  });
  return { page, frame };
}

export const stateOf = (frame: Frame) => frame.evaluate(() => document.documentElement.dataset.state ?? '');

export async function waitForState(frame: Frame, state: string, timeout = 20_000): Promise<void> {
  await frame.waitForFunction((wanted) => document.documentElement.dataset.state === wanted, state, {
    timeout,
  });
}

/** Milliseconds from the frame's navigation to its first card drawn (the page's performance mark). */
export const firstCardMs = (frame: Frame) =>
  frame.evaluate(() => performance.getEntriesByName('raspa:first-card')[0]?.startTime ?? Number.NaN);

/** The scratch area (the foil) in the main page's coordinates. */
export async function scratchZone(frame: Frame) {
  const box = await frame.locator('[data-scratch-zone]').boundingBox();
  if (!box || box.width < 10) throw new Error('no scratch area on the page');
  return box;
}

/** Horizontal strokes down the foil until the card reveals itself; returns the strokes made. */
async function strokeUntilRevealed(
  frame: Frame,
  stroke: (y: number, x0: number, x1: number) => Promise<void>,
): Promise<number> {
  const box = await scratchZone(frame);
  const rows = 12;
  let strokes = 0;
  for (let pass = 0; pass < 2; pass++) {
    for (let row = 0; row < rows; row++) {
      const y = box.y + ((row + 0.5 + pass * 0.5) / rows) * box.height;
      await stroke(Math.min(y, box.y + box.height - 2), box.x + 4, box.x + box.width - 4);
      strokes++;
      if ((await stateOf(frame)) !== 'playing') return strokes;
    }
  }
  throw new Error('the card did not reveal itself after scratching it all');
}

/** Scratches with real mouse drags (left button held). */
export function scratchWithMouse(page: Page, frame: Frame): Promise<number> {
  return strokeUntilRevealed(frame, async (y, x0, x1) => {
    await page.mouse.move(x0, y);
    await page.mouse.down();
    await page.mouse.move(x1, y, { steps: 12 });
    await page.mouse.up();
  });
}

/** Scratches with real touch drags (one finger), sent to the browser as touch input. */
export function scratchWithTouch(cdp: CDPSession, frame: Frame): Promise<number> {
  return strokeUntilRevealed(frame, async (y, x0, x1) => {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: x0, y }] });
    const steps = 12;
    for (let step = 1; step <= steps; step++) {
      await cdp.send('Input.dispatchTouchEvent', {
        type: 'touchMove',
        touchPoints: [{ x: x0 + ((x1 - x0) * step) / steps, y }],
      });
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  });
}

/** Long tasks of the frame that started after `since` (performance time of the frame). */
export async function longTasksSince(
  frame: Frame,
  since: number,
): Promise<Array<{ start: number; duration: number }>> {
  return frame.evaluate(
    (from) =>
      (
        (window as unknown as { __longTasks?: Array<{ start: number; duration: number }> }).__longTasks ?? []
      ).filter((task) => task.start + task.duration >= from),
    since,
  );
}

export const frameNow = (frame: Frame) => frame.evaluate(() => performance.now());

/**
 * Waits until the element's box stays the same over two animation frames (the layout has settled
 * after a resize: ResizeObserver callbacks, the card redrawn), instead of sleeping a fixed time.
 */
export async function settledBox(frame: Frame, selector: string, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const stable = await frame.evaluate(
      (wanted) =>
        new Promise<boolean>((resolve) => {
          const box = () => JSON.stringify(document.querySelector(wanted)?.getBoundingClientRect() ?? null);
          const before = box();
          requestAnimationFrame(() =>
            requestAnimationFrame(() => resolve(box() === before && before !== 'null')),
          );
        }),
      selector,
    );
    if (stable) return;
    if (Date.now() > end) throw new Error(`${selector} did not settle in ${timeoutMs} ms`);
  }
}

/**
 * Scratches the card (mouse drags, or touch drags through `cdp`) until it reveals itself, and measures
 * the longest task of the frame "while scratching": from the first stroke to the moment the card
 * reveals itself (the page's `raspa:revealing` mark). Needs LONG_TASK_RECORDER in the context.
 */
export async function scratchMeasured(
  page: Page,
  frame: Frame,
  cdp?: CDPSession,
): Promise<{ strokes: number; longestTaskMs: number }> {
  const started = await frameNow(frame);
  const strokes = cdp ? await scratchWithTouch(cdp, frame) : await scratchWithMouse(page, frame);
  const revealedAt = await frame.evaluate(
    () => performance.getEntriesByName('raspa:revealing').at(-1)?.startTime ?? 0,
  );
  const tasks = await longTasksSince(frame, started);
  const longestTaskMs = Math.max(
    0,
    ...tasks.filter((task) => task.start < revealedAt).map((task) => task.duration),
  );
  return { strokes, longestTaskMs };
}

export async function hostMessages(page: Page): Promise<HostMessage[]> {
  return page.evaluate(() => (window as unknown as { __raspaMessages: HostMessage[] }).__raspaMessages);
}

/** A screenshot of the game's frame only (what the player sees inside the operator's page). */
export async function shootFrame(page: Page, name: string): Promise<void> {
  await page.locator('iframe').screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) });
}
