import { count, el, percent, utcTime } from '@raspa/browser-kit';
import type { Game, Pool } from '@raspa/server/wire';
import { checkPool } from '../fairness/pool-check.ts';
import { table } from '../ui/blocks.ts';
import type { PageContext } from '../ui/context.ts';
import { afterPaint, Feedback } from '../ui/feedback.ts';

/**
 * A game version's ticket pools (GET /v1/game/{id}/pools): the commitment published when each began,
 * how many of its tickets are drawn, and for an ended pool its seed, which this browser checks with the
 * core's verifier: the seed's SHA-256 is the commitment. (A round's page checks its own draw;
 * `pnpm verify-pool` checks every round drawn from the pool.)
 */
export function poolsView(context: PageContext, game: Game): HTMLElement {
  const { api, t, lang } = context;
  const feedback = new Feedback(() => t);
  const list = el('div');
  const title = el('h2', { tabindex: -1 }, [t.pools.of(game.gameModel, game.version)]);

  function verifyCell(pool: Pool): Node | string {
    if (!pool.seed) return t.pools.seedLater;
    const verdict = el('span', { role: 'status' });
    const button = el(
      'button',
      { type: 'button', class: 'secondary', 'aria-label': t.pools.verifyLabel(pool.number) },
      [t.round.verify],
    );
    button.addEventListener('click', async () => {
      button.disabled = true;
      verdict.className = '';
      verdict.textContent = t.round.verifying;
      // Let the status paint before the pool is derived (a million tickets take a moment).
      await afterPaint();
      const result = checkPool(pool, game);
      button.disabled = false;
      verdict.className = result?.ok ? 'badge on' : 'badge off';
      verdict.textContent = result?.ok
        ? t.pools.verified
        : t.pools.notVerified(result?.commitmentMatches ?? false);
    });
    return el('div', { class: 'row-actions' }, [button, verdict]);
  }

  async function load() {
    const pools = await feedback.run(t.common.loading, () => api.listPools(game.id), { region: list });
    if (!pools) return;
    list.replaceChildren(
      table<Pool>(
        t.pools.of(game.gameModel, game.version),
        [
          [t.pools.number, (pool) => pool.number],
          [t.pools.started, (pool) => utcTime(pool.startedAt, lang)],
          [t.pools.ended, (pool) => (pool.endedAt ? utcTime(pool.endedAt, lang) : t.pools.running)],
          [
            t.pools.drawn,
            (pool) =>
              `${t.pools.drawnOf(count(pool.draws, lang), count(pool.sampling, lang))} (${percent(pool.draws / pool.sampling, lang, 1)})`,
          ],
          [t.pools.commitment, (pool) => el('code', { class: 'wrap' }, [pool.commitment])],
          [t.pools.seed, (pool) => (pool.seed ? el('code', { class: 'wrap' }, [pool.seed]) : '—')],
          [t.pools.verification, (pool) => verifyCell(pool)],
        ],
        [...pools].reverse(),
        t.pools.none,
      ),
    );
  }
  void load();
  queueMicrotask(() => title.focus());
  return el('section', { class: 'card', 'aria-label': t.pools.of(game.gameModel, game.version) }, [
    title,
    el('p', { class: 'hint' }, [t.pools.intro]),
    ...feedback.nodes(),
    list,
  ]);
}
