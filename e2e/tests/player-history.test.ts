import type { Browser, Frame } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createI18n } from '../../apps/game/src/i18n/i18n.ts';
import { STRINGS } from '../../apps/game/src/i18n/strings.ts';
import { launchChromium } from '../src/chromium.ts';
import { openFramed, settledBox, shootFrame, waitForState } from '../src/player-page.ts';
import { eventually, type Lang, type Raspa, startRaspa } from '../src/raspa-fixture.ts';

/**
 * Free cards and the history on the player's page (issues 26 and 25, docs/promotions.md and
 * docs/player-protection.md): a player granted 2 free cards through the API plays them and then a
 * bought card, the buy button's count falling 2 → 1 → the price, the wallet debited for the bought
 * card only; the history then lists the 3 rounds (2 free) and draws a chosen one scratched. Once on
 * a desktop in English, then on a 360×640 phone in Portuguese, and the free button in Spanish.
 */

let raspa: Raspa;
let browser: Browser;
const CREDENTIAL = 'free-card-player';
const HOUR = 3_600_000;

beforeAll(async () => {
  [raspa, browser] = await Promise.all([startRaspa(), launchChromium()]);
});

afterAll(async () => {
  await browser?.close();
  await raspa?.close();
});

async function call(method: string, path: string, body: unknown) {
  const answer = await raspa.server.call(method, path, { token: raspa.tokens, body });
  if (answer.status >= 300) throw new Error(`${method} ${path}: ${JSON.stringify(answer.body)}`);
  return answer.body.data;
}

/**
 * Grants the player `cards` free cards of the game through the signed API, expiring 3 hours after the
 * server's (test) clock: within a day, so the page adds "valid until" (it compares with the device's
 * clock, which is later than the test server's; a time shown in the past is still "within a day").
 */
async function grant(gameId: string, cards: number): Promise<void> {
  const { userId } = await call('POST', '/v1/user/auth', {
    profileId: raspa.profileId,
    credential: CREDENTIAL,
    credentialType: 'username',
  });
  await call('POST', '/v1/promotion', {
    profileId: raspa.profileId,
    gameId,
    name: 'Welcome',
    cardsPerPlayer: cards,
    players: [userId],
    expireAt: new Date(raspa.server.clock().getTime() + 3 * HOUR).toISOString(),
  });
}

const text = async (frame: Frame, selector: string) => (await frame.locator(selector).textContent()) ?? '';
const focused = (frame: Frame) =>
  frame.evaluate(() => {
    const active = document.activeElement as HTMLElement | null;
    return active?.dataset.action ?? active?.dataset.roundId ?? active?.tagName ?? '';
  });

async function openPlayer(lang: Lang, gameId: string, phone = false) {
  const context = await browser.newContext(
    phone
      ? { viewport: { width: 360, height: 640 }, hasTouch: true, isMobile: true, reducedMotion: 'reduce' }
      : { viewport: { width: 1024, height: 680 }, reducedMotion: 'reduce' },
  );
  const gameUrl = await raspa.newSession(gameId, CREDENTIAL, lang);
  const framed = await openFramed(context, raspa.host.urlFor(gameUrl));
  await waitForState(framed.frame, 'idle');
  return framed;
}

describe("free cards and the history on the player's page", () => {
  it('plays 2 free cards then a bought one, and the history lists them and draws one scratched', async () => {
    const gameId = await raspa.createGame('oxe-ganhei');
    await raspa.newSession(gameId, CREDENTIAL, 'en'); // the player exists before the grant
    await grant(gameId, 2);
    const { page, frame } = await openPlayer('en', gameId);
    const en = createI18n('en', 'BRL');
    const buy = frame.locator('[data-action="buy"]');
    const history = frame.locator('[data-action="history"]');
    const note = frame.locator('.free-cards-note');

    expect(await buy.textContent()).toBe('Play a free card · 2 left');
    expect(await note.textContent()).toMatch(/^You have 2 free cards left\. Valid until .+\.$/);
    await shootFrame(page, 'history-1-free-card-button');

    const expected = [
      { button: 'Play a free card · 2 left', after: /^You have 1 free card left\. Valid until / },
      { button: 'Play a free card · 1 left', after: /^That was your last free card\.$/ },
      { button: en.t('buyAnother', { price: en.money(200) }), after: null },
    ];
    const roundIds: string[] = [];
    for (const step of expected) {
      expect(await buy.textContent()).toBe(step.button);
      await buy.click();
      await waitForState(frame, 'playing');
      // No history while a card is in play: the list can never touch the open round.
      expect(await history.isDisabled()).toBe(true);
      const roundId = await frame.evaluate(() => document.documentElement.dataset.roundId ?? '');
      roundIds.push(roundId);
      await frame.locator('[data-action="reveal-all"]').click();
      await waitForState(frame, 'revealed');
      await eventually(async () => (await raspa.round(roundId))?.status === 'closed');
      if (step.after) expect(await note.textContent()).toMatch(step.after);
      else expect(await note.isHidden()).toBe(true);
      expect(await history.isDisabled()).toBe(false);
    }
    expect(await buy.textContent()).toBe(en.t('buyAnother', { price: en.money(200) }));

    // The wallet: no bet for the free cards, one of R$ 2 for the bought one; paidPrice says the same.
    const rounds = await Promise.all(roundIds.map((id) => raspa.round(id)));
    expect(rounds.map((round) => round?.paidPrice)).toEqual([0, 0, 2]);
    const bets = roundIds.map((id) =>
      raspa.operator.calls
        .filter((call) => call.kind === 'bet' && call.body.roundId === id)
        .map((call) => call.body.amount),
    );
    expect(bets).toEqual([[], [], [2]]);
    const prizes = rounds.reduce((sum, round) => sum + Math.round((round?.prize ?? 0) * 100), 0);
    expect(raspa.operator.balanceOf(CREDENTIAL)).toBe(100_000 - 200 + prizes);

    // The history, from the keyboard: the list opens with focus on its newest row.
    await history.focus();
    await page.keyboard.press('Enter');
    const rows = frame.locator('.history-row');
    await eventually(async () => (await rows.count()) === 3);
    expect(await frame.evaluate(() => document.documentElement.dataset.history)).toBe('list');
    expect(await rows.evaluateAll((all) => all.map((row) => (row as HTMLElement).dataset.roundId))).toEqual(
      [...roundIds].reverse(),
    );
    expect(await rows.evaluateAll((all) => all.map((row) => (row as HTMLElement).dataset.free))).toEqual([
      'false',
      'true',
      'true',
    ]);
    expect(await frame.locator('.history-row .history-price').allTextContents()).toEqual([
      en.money(200),
      en.t('historyFree'),
      en.t('historyFree'),
    ]);
    expect(await focused(frame)).toBe(roundIds[2]);
    await shootFrame(page, 'history-2-list');

    // Tab to the second row (a free card), Enter: its card is drawn scratched.
    await page.keyboard.press('Tab');
    expect(await focused(frame)).toBe(roundIds[1]);
    await page.keyboard.press('Enter');
    await frame.waitForFunction((id) => document.documentElement.dataset.historyDrawn === id, roundIds[1]);
    expect(await focused(frame)).toBe('history-list');
    await settledBox(frame, '[data-history-card] canvas');
    await shootFrame(page, 'history-3-past-card');

    // Back to the list (focus on the row chosen), then Escape back to play (focus on "History").
    await page.keyboard.press('Enter');
    expect(await focused(frame)).toBe(roundIds[1]);
    await page.keyboard.press('Escape');
    await frame.waitForFunction(() => document.documentElement.dataset.history === undefined);
    expect(await focused(frame)).toBe('history');
    expect(await frame.evaluate(() => document.documentElement.dataset.state)).toBe('revealed');
    await page.context().close();
  });

  it('on a 360×640 phone in Portuguese, and the free button in Spanish', async () => {
    const gameId = await raspa.createGame('oxe-ganhei');
    await raspa.newSession(gameId, CREDENTIAL, 'pt');
    await grant(gameId, 1);
    const { page, frame } = await openPlayer('pt', gameId, true);
    expect(await text(frame, '[data-action="buy"]')).toBe('Jogar grátis · resta 1');
    expect(await text(frame, '.free-cards-note')).toMatch(/^Resta 1 raspadinha grátis\. Válida até /);
    await shootFrame(page, 'history-phone-1-free-card-button');

    await frame.locator('[data-action="buy"]').tap();
    await waitForState(frame, 'playing');
    const roundId = await frame.evaluate(() => document.documentElement.dataset.roundId ?? '');
    await frame.locator('[data-action="reveal-all"]').tap();
    await waitForState(frame, 'revealed');
    expect(await text(frame, '.free-cards-note')).toBe(STRINGS.pt.freeLastUsed);

    // The history's button is a clock on a phone, named for screen readers; the list fits the screen.
    const history = frame.locator('[data-action="history"]');
    expect(await history.textContent()).toBe('Histórico');
    // The bar's five parts fit on one row, side by side, none over another.
    const boxes = await frame
      .locator('.bar > :is(.figure, button)')
      .evaluateAll((all) => all.map((each) => each.getBoundingClientRect().toJSON() as DOMRect));
    const width = await frame.evaluate(() => window.innerWidth);
    expect(boxes).toHaveLength(5);
    for (const [index, box] of boxes.entries()) {
      expect(box.right, `bar part ${index}`).toBeLessThanOrEqual(width);
      const next = boxes[index + 1];
      if (next) expect(box.right, `bar part ${index}`).toBeLessThanOrEqual(next.left);
    }
    await history.tap();
    await eventually(async () => (await frame.locator('.history-row').count()) === 1);
    const dialog = await frame.locator('dialog.history').boundingBox();
    expect(dialog?.width).toBeLessThanOrEqual(360);
    expect(await text(frame, '.history-row .history-price')).toBe('Grátis');
    await frame.locator('.history-row').tap();
    await frame.waitForFunction((id) => document.documentElement.dataset.historyDrawn === id, roundId);
    await settledBox(frame, '[data-history-card] canvas');
    const card = await frame.locator('[data-history-card] canvas').boundingBox();
    expect(card && card.x >= 0 && card.x + card.width <= 360).toBe(true);
    await shootFrame(page, 'history-phone-2-past-card');
    await frame.locator('[data-action="history-close"]').tap();
    await page.context().close();

    // Spanish: the free button's words and plural (a fresh grant of 2 on the same game).
    await grant(gameId, 2);
    const es = await openPlayer('es', gameId);
    expect(await text(es.frame, '[data-action="buy"]')).toBe('Jugar gratis · quedan 2');
    expect(await text(es.frame, '[data-action="history"]')).toBe('Historial');
    await es.page.context().close();
  });
});
