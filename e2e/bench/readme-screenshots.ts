/**
 * `node --import tsx e2e/bench/readme-screenshots.ts [--out DIR]`: retakes the README's two pictures,
 * `front-door-game.png` (a won card of oxe-ganhei, framed by an operator's page) and
 * `front-door-panel.png` (the back office's overview after a few rounds), in docs/screenshots by
 * default. Needs `pnpm build:game` and `pnpm build:panel` first, and Debian's Chromium
 * (`CHROMIUM_PATH` to use another).
 *
 * It drives what the browser tests drive (e2e/src): a real service on a fresh SQLite file and an
 * ephemeral port, the test operator's wallet and webhook receiver, Chromium headless. A script, not
 * a test: it asserts nothing, so the pictures can be retaken whenever the pages change.
 */
import { join } from 'node:path';
import { connectPlayer } from '../../apps/server/test/play-fixtures.ts';
import { launchChromium } from '../src/chromium.ts';
import { signIn } from '../src/panel-sign-in.ts';
import { openFramed, waitForState } from '../src/player-page.ts';
import { startRaspa } from '../src/raspa-fixture.ts';

const at = process.argv.indexOf('--out');
const OUT = at >= 0 ? (process.argv[at + 1] ?? '') : join(import.meta.dirname, '../../docs/screenshots');
const WAIT = { timeout: 60_000 };
/** Days with rounds before the panel's picture, so its totals and chart have something to show. */
const DAYS = 9;

const [raspa, browser] = await Promise.all([startRaspa(), launchChromium()]);
try {
  const gameId = await raspa.createGame('oxe-ganhei');

  // The panel's figures: a few rounds a day over the last nine days, by other players through the
  // play protocol. The service's clock is the test's, set back a day at a time (its tokens were made
  // at the end of that span, so they stay valid).
  const today = raspa.server.clock();
  for (let daysAgo = DAYS - 1; daysAgo >= 0; daysAgo--) {
    raspa.server.clock.set(new Date(today.getTime() - daysAgo * 86_400_000));
    const gameUrl = await raspa.newSession(gameId, `readme-regular-${daysAgo}`, 'pt');
    const regular = await connectPlayer(raspa.server.url, new URL(gameUrl).searchParams.get('token') ?? '');
    for (let round = 0; round < 4 + ((daysAgo * 5) % 7); round++) {
      const bought = await regular.ask('buy');
      if (!bought.ok) throw new Error(`could not buy: ${JSON.stringify(bought)}`);
      await regular.ask('reveal', { roundId: bought.data.round.roundId });
    }
    regular.close();
  }

  // The game: the next ticket made a win, bought and revealed with the page's own buttons.
  const game = await browser.newContext({ viewport: { width: 1024, height: 680 } });
  const playerUrl = await raspa.newSession(gameId, 'readme-player', 'pt');
  await raspa.steer(gameId, 'win');
  const { page, frame } = await openFramed(game, raspa.host.urlFor(playerUrl));
  await frame.locator('[data-action="buy"]').click();
  await waitForState(frame, 'playing');
  await frame.locator('[data-action="reveal-all"]').click();
  await waitForState(frame, 'revealed');
  // The banner's pop and the first confetti: a picture, not an assertion, so a pause is fine here.
  await page.waitForTimeout(700);
  await page.locator('iframe').screenshot({ path: join(OUT, 'front-door-game.png') });
  await game.close();

  // The panel: signed in as the API client that owns the profile (the fixture's password), on its overview.
  const { store } = raspa.server.deps;
  const owner = await store.clients.findClientById(
    (await store.profiles.findById(raspa.profileId))?.clientId ?? '',
  );
  if (!owner) throw new Error('the profile has no client');
  const panel = await browser.newContext({ viewport: { width: 1280, height: 1040 }, locale: 'en-US' });
  const staff = await panel.newPage();
  // The overview's "today" is the browser's: make it the service's (the test clock is in March 2026).
  await staff.clock.setFixedTime(raspa.server.clock());
  await staff.goto(`${raspa.server.url}/panel/`);
  await signIn(staff, owner.email, 'correct horse battery');
  await staff.getByRole('heading', { level: 1, name: 'Overview' }).waitFor(WAIT);
  await staff.getByRole('img', { name: /GGR per day/ }).waitFor(WAIT);
  await staff.screenshot({ path: join(OUT, 'front-door-panel.png') });
  await panel.close();
  console.log(`front-door-game.png and front-door-panel.png written to ${OUT}`);
} finally {
  await browser.close();
  await raspa.close();
}
