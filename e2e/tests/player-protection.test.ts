import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createI18n } from '../../apps/game/src/i18n/i18n.ts';
import { connectPlayer } from '../../apps/server/test/play-fixtures.ts';
import { launchChromium } from '../src/chromium.ts';
import { openFramed, scratchWithMouse, shootFrame, waitForState } from '../src/player-page.ts';
import { type Raspa, type Seat, startRaspa } from '../src/raspa-fixture.ts';

/**
 * Player protection on the player's page (issue 25, docs/player-protection.md), in Chromium against
 * a real service: the BR rules bar and a loss limit reached and read; a reality check pausing play and
 * "Keep playing" by keyboard; under GB, no "Reveal all", the elapsed time and net position, and a
 * buy within 5 s waiting with a countdown (refused by the server, and known by the page); then the
 * operator ending the session. One scenario per language. Time is never waited for: the service's
 * clock is the test's, and under GB the page's clock is fixed to it and moved with it.
 */

const WAIT = { timeout: 30_000 };
const RG_URL = 'https://jogo-responsavel.example/';
const RETURN_URL = 'https://casa.example/lobby';

let raspa: Raspa;
let browser: Browser;
let context: BrowserContext;
let gameId: string;

beforeAll(async () => {
  [raspa, browser] = await Promise.all([startRaspa(), launchChromium()]);
  gameId = await raspa.createGame('oxe-ganhei');
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await raspa?.close();
});

async function open(seat: Seat): Promise<{ page: Page; frame: Frame }> {
  await context?.close();
  context = await browser.newContext({ viewport: { width: 1024, height: 680 }, reducedMotion: 'reduce' });
  return openFramed(context, raspa.host.urlFor(seat.gameUrl));
}

const status = (frame: Frame) => frame.locator('.status').textContent();
const buyButton = (frame: Frame) => frame.locator('[data-action="buy"]');
const roundOf = (frame: Frame) => frame.evaluate(() => document.documentElement.dataset.roundId ?? '');

async function buyAndRevealAll(frame: Frame): Promise<string> {
  await buyButton(frame).click();
  await waitForState(frame, 'playing');
  await frame.locator('[data-action="reveal-all"]').click();
  await waitForState(frame, 'revealed');
  return roundOf(frame);
}

/** The elapsed time on screen: it is redrawn on the page's own tick, so a moved clock shows within one. */
async function waitForElapsed(frame: Frame, want: string): Promise<void> {
  await frame.waitForFunction(
    (text) => document.querySelector('[data-elapsed]')?.textContent === text,
    want,
    WAIT,
  );
}

const putLimits = async (seat: Seat, body: unknown) => {
  const answer = await raspa.server.call('PUT', `/v1/user/${seat.playerId}/limits`, {
    token: raspa.tokens,
    body,
  });
  expect(answer.status).toBe(200);
};

describe("player protection on the player's page", () => {
  it('BR (pt): the RTP, "18+" and the responsible-gaming link; a loss limit reached, and the page says why', async () => {
    await raspa.setProfile({ jurisdiction: 'BR', responsibleGamingUrl: RG_URL });
    const seat = await raspa.seat(gameId, 'bia', { lang: 'pt' });
    await putLimits(seat, { limits: [{ type: 'loss', period: 'day', currency: 'BRL', amount: 2 }] });
    await raspa.steer(gameId, 'lose');
    const { page, frame } = await open(seat);
    const i18n = createI18n('pt', 'BRL');
    const bar = frame.locator('[data-rules-bar]');
    await bar.waitFor(WAIT);
    expect(await bar.locator('[data-rule="rtp"]').textContent()).toBe(i18n.t('rtp', { rtp: '90%' }));
    const age = bar.locator('[data-rule="age"]');
    expect(await age.textContent()).toBe('18+');
    expect(await age.getAttribute('aria-label')).toBe(i18n.t('ageNoticeLabel', { age: 18 }));
    const link = bar.getByRole('link', { name: `${i18n.t('responsibleGaming')} ${i18n.t('newTab')}` });
    expect(await link.getAttribute('href')).toBe(RG_URL);
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('noopener');
    // No elapsed time or net position under BR; "Reveal all" is offered.
    expect(await bar.locator('[data-rule="elapsed"], [data-rule="net"]').count()).toBe(0);
    expect(await frame.locator('[data-action="reveal-all"]').isHidden()).toBe(false);
    await shootFrame(page, 'protection-br-bar');

    // One lost card reaches the R$ 2,00 daily loss limit: the next one is refused, and the page says why.
    await buyAndRevealAll(frame);
    const first = await roundOf(frame);
    await buyButton(frame).click();
    await frame.waitForFunction(() => document.documentElement.dataset.error === 'LIMIT_REACHED', null, WAIT);
    const text = (await status(frame)) ?? '';
    expect(text).toContain('limite diário de perda');
    expect(text).toContain(i18n.money(200));
    expect(await roundOf(frame)).toBe(first); // nothing bought
    expect(await buyButton(frame).isEnabled()).toBe(true);
  });

  it('a reality check (es) pauses play in a dialog; "Keep playing" by keyboard resumes it', async () => {
    await raspa.setProfile({ jurisdiction: null });
    const seat = await raspa.seat(gameId, 'sol', { lang: 'es' });
    await putLimits(seat, { limits: [], realityCheckMinutes: 1 });
    const { page, frame } = await open(seat);
    const i18n = createI18n('es', 'BRL');
    await buyAndRevealAll(frame);
    const first = await roundOf(frame);
    raspa.server.clock.advance(60_000);

    await buyButton(frame).click();
    const dialog = frame.getByRole('dialog', { name: i18n.t('realityTitle') });
    await dialog.waitFor(WAIT);
    expect(await dialog.getAttribute('aria-modal')).toBe('true');
    const figure = (name: string) => dialog.locator(`[data-figure="${name}"] dd`).textContent();
    expect(await figure('elapsed')).toBe(i18n.t('minutes', { n: 1 }));
    expect(await figure('wagered')).toBe(i18n.money(200));
    const described = await frame.evaluate(() => {
      const box = document.querySelector('[role="dialog"]');
      const id = box?.getAttribute('aria-describedby') ?? '';
      return {
        text: document.getElementById(id)?.textContent ?? '',
        focused: box?.contains(document.activeElement),
      };
    });
    expect(described.text).toContain(i18n.money(200)); // the figures are the dialog's description
    expect(described.focused).toBe(true);
    await shootFrame(page, 'protection-reality-check');

    // Escape does not dismiss it; Tab stays inside; Enter on "Keep playing" resumes.
    await page.keyboard.press('Escape');
    await dialog.getByText(i18n.t('realityChoose')).waitFor(WAIT);
    expect(await dialog.getByRole('button', { name: i18n.t('leave') }).count()).toBe(1); // no returnUrl: no link
    await page.keyboard.press('Tab');
    const keep = dialog.getByRole('button', { name: i18n.t('keepPlaying') });
    expect(await keep.evaluate((button) => button === document.activeElement)).toBe(true);
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    expect(await dialog.evaluate((box) => box.contains(document.activeElement))).toBe(true);
    await keep.focus();
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden', ...WAIT });

    await buyButton(frame).click();
    await waitForState(frame, 'playing');
    expect(await roundOf(frame)).not.toBe(first);
  });

  it('GB (en): scratch only, elapsed time and net shown, 5 s between buys; then the operator ends the session', async () => {
    await raspa.setProfile({ jurisdiction: 'GB' });
    const seat = await raspa.seat(gameId, 'rui', { lang: 'en', returnUrl: RETURN_URL });
    const i18n = createI18n('en', 'BRL');
    await context?.close();
    context = await browser.newContext({ viewport: { width: 1024, height: 680 }, reducedMotion: 'reduce' });
    // The page's clock is the service's, moved with it: the countdowns end when the test says.
    const start = raspa.server.clock().getTime();
    await context.clock.setFixedTime(start);
    const opened = await openFramed(context, raspa.host.urlFor(seat.gameUrl));
    const { page } = opened;
    let { frame } = opened;
    const advance = async (ms: number) => {
      raspa.server.clock.advance(ms);
      await context.clock.setFixedTime(raspa.server.clock());
    };
    expect(await frame.locator('[data-action="reveal-all"]').isHidden()).toBe(true);
    let net = frame.locator('[data-net]');
    await waitForElapsed(frame, '0:00:00');
    expect(await net.getAttribute('data-net')).toBe('0');

    // Another tab of the session has just bought: the page's buy is refused, and waits it out.
    const other = await connectPlayer(raspa.server.url, seat.token);
    let otherNet = 0;
    try {
      const bought = await other.ask('buy');
      if (!bought.ok) throw new Error(`the other tab could not buy: ${bought.error.code}`);
      const revealed = await other.ask('reveal', { roundId: bought.data.round.roundId });
      if (!revealed.ok || revealed.data.round.status !== 'closed')
        throw new Error('the other tab’s card is not paid');
      otherNet = revealed.data.round.prize - revealed.data.round.price;
    } finally {
      other.close();
    }
    await buyButton(frame).click();
    await frame.waitForFunction(
      () => document.querySelector('[data-action="buy"]')?.getAttribute('data-wait') === '5',
      null,
      WAIT,
    );
    expect(await buyButton(frame).isDisabled()).toBe(true);
    expect(await buyButton(frame).textContent()).toBe(i18n.t('nextCardIn', { s: 5 }));
    expect(await status(frame)).toBe(i18n.t('buyWaitHint', { s: 5 }));
    await advance(5000);
    await frame.waitForFunction(
      () => !document.querySelector('[data-action="buy"]')?.hasAttribute('data-wait'),
      null,
      WAIT,
    );
    await waitForElapsed(frame, '0:00:05');

    // Bought, scratched (no "Reveal all"); the net position counts it (not the other tab's card,
    // until the page's next `state`); the next buy waits 5 s.
    await buyButton(frame).click();
    await waitForState(frame, 'playing');
    const first = await roundOf(frame);
    expect(await status(frame)).toBe(i18n.t('scratchOnlyHint'));
    await scratchWithMouse(page, frame);
    await waitForState(frame, 'revealed');
    const round = await raspa.round(first);
    const expectedNet = Math.round(((round?.prize ?? 0) - 2) * 100);
    await frame.waitForFunction(
      (want) => document.querySelector('[data-net]')?.getAttribute('data-net') === want,
      String(expectedNet),
      WAIT,
    );
    expect(await net.textContent()).toBe(i18n.money(expectedNet));
    expect(await buyButton(frame).getAttribute('data-wait')).toBe('5');
    expect(await buyButton(frame).isDisabled()).toBe(true);
    await shootFrame(page, 'protection-gb-bar');

    // A reload keeps the session's elapsed time and net position, now with the other tab's card:
    // the server's figures in `state` are the page's base.
    await page.reload();
    const reloaded = await (await page.waitForSelector('iframe')).contentFrame();
    if (!reloaded) throw new Error('the game frame did not load again');
    frame = reloaded;
    net = frame.locator('[data-net]');
    const sessionNet = String(expectedNet + otherNet);
    await frame.waitForFunction(
      (want) => document.querySelector('[data-net]')?.getAttribute('data-net') === want,
      sessionNet,
      WAIT,
    );
    expect(await net.textContent()).toBe(i18n.money(Number(sessionNet)));
    await waitForElapsed(frame, '0:00:05');
    await advance(5000);
    await frame.waitForFunction(
      () => !document.querySelector('[data-action="buy"]')?.hasAttribute('data-wait'),
      null,
      WAIT,
    );
    await buyButton(frame).click();
    await waitForState(frame, 'playing');
    expect(await roundOf(frame)).not.toBe(first);
    await waitForElapsed(frame, '0:00:10');

    // The operator ends the session: the page says so (not "expired") and offers the way back.
    const ended = await raspa.server.call('DELETE', `/v1/game/session/${seat.sessionId}`, {
      token: raspa.tokens,
    });
    expect(ended.status).toBe(200);
    await frame.waitForFunction(() => document.documentElement.dataset.session === 'ended', null, WAIT);
    const blocker = frame.getByRole('alertdialog', { name: i18n.t('sessionEndedTitle') });
    await blocker.getByText(i18n.error('SESSION_ENDED')).waitFor(WAIT);
    expect(await blocker.getByRole('link', { name: i18n.t('backToSite') }).getAttribute('href')).toBe(
      RETURN_URL,
    );

    // Its gameUrl opened again (the operator's page reloaded): still framed, it says the session
    // ended, not that it expired, and still offers the way back.
    await page.reload();
    const reopened = await (await page.waitForSelector('iframe')).contentFrame();
    if (!reopened) throw new Error('the game frame did not load again');
    await reopened.waitForFunction(() => document.documentElement.dataset.session === 'ended', null, WAIT);
    const reopenedBlocker = reopened.getByRole('alertdialog', { name: i18n.t('sessionEndedTitle') });
    await reopenedBlocker.getByText(i18n.error('SESSION_ENDED')).waitFor(WAIT);
    expect(await reopenedBlocker.getByRole('link', { name: i18n.t('backToSite') }).getAttribute('href')).toBe(
      RETURN_URL,
    );
  });
});
