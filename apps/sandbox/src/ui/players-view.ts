import { el, fill } from '@raspa/browser-kit';
import { type Ladder, PLAYER_RESULTS_DEFAULTS, type PlayerResults, toMajor } from '@raspa/core';
import { resultsChart } from '../charts/results-chart.ts';
import { tile } from './figures-view.ts';
import { count, money, percent, signedMoney, signedShortMoney } from './format.ts';

/** The CLI line that prints the same player figures. */
export function ladderCommand(ladder: Ladder, cards: number, seed: number): string {
  return [
    'pnpm ladder',
    `--model ${ladder.gameModel}`,
    `--rtp ${ladder.rtpPpm / 1e6}`,
    `--sampling ${ladder.sampling}`,
    `--prized ${ladder.prizedPpm / 1e6}`,
    `--bet ${toMajor(ladder.betPrice, ladder.currency)}`,
    `--currency ${ladder.currency}`,
    `--simulate ${cards}`,
    `--seed ${seed}`,
  ].join(' ');
}

/** How N cards bought in a row end for a player: volatility, not only the average. */
export class PlayersView {
  readonly root: HTMLElement;
  private readonly status = el('p', { class: 'status', role: 'status' });
  private readonly tiles = el('div', { class: 'tiles' });
  private readonly percentiles = el('div', { class: 'table-wrap' });
  private readonly chart = el('figure', { class: 'chart-box' });
  private readonly command = el('code', { class: 'command' });

  constructor(inputs: HTMLElement) {
    this.root = el(
      'section',
      { class: 'players', 'aria-label': 'A player’s result over N cards', 'data-state': 'idle' },
      [
        el('h3', {}, ['A player’s result over N cards']),
        el('p', { class: 'lead' }, [
          `${count(PLAYER_RESULTS_DEFAULTS.trials)} simulated players each buy N cards in a row, every card drawn with the ladder’s odds.`,
        ]),
        inputs,
        this.status,
        this.tiles,
        this.chart,
        this.percentiles,
        el('p', { class: 'hint' }, ['The same figures in a terminal: ', this.command]),
      ],
    );
  }

  pending(): void {
    this.root.dataset.state = 'running';
    this.status.textContent = 'Simulating players…';
  }

  unavailable(reason: string): void {
    this.root.dataset.state = 'stale';
    this.status.textContent = reason;
  }

  show(ladder: Ladder, results: PlayerResults, seed: number, elapsedMs: number): void {
    const cur = ladder.currency;
    this.root.dataset.state = 'done';
    this.status.textContent = `${count(results.trials)} players × ${count(results.cards)} cards (${money(
      results.stake,
      cur,
    )} staked each), simulated in ${Math.round(elapsedMs)} ms.`;
    fill(this.tiles, [
      tile(
        'End ahead',
        percent(results.aheadChance),
        `at least even ${percent(results.evenOrAheadChance)}`,
        'ahead',
      ),
      tile(
        'Median result',
        signedShortMoney(results.median, cur),
        'half the players do worse',
        'median',
        signedMoney(results.median, cur),
      ),
      tile(
        'Average result',
        signedShortMoney(results.mean, cur),
        `expected ${signedShortMoney(results.expected, cur)}`,
        'mean',
        signedMoney(results.mean, cur),
      ),
      tile(
        'No win at all',
        percent(results.noWinChance),
        `not one winning card in ${count(results.cards)}`,
        'no-win',
      ),
    ]);
    fill(this.chart, [
      resultsChart(results, cur),
      el('figcaption', {}, ['Each bar is 1% of the players, from the worst result to the best.']),
    ]);
    this.percentiles.replaceChildren(
      el('table', { class: 'percentiles', 'data-percentiles': '' }, [
        el('thead', {}, [
          el('tr', {}, [
            el('th', { scope: 'row' }, ['Percentile']),
            ...results.percentiles.map((p) => el('th', { scope: 'col' }, [`${p.percent}%`])),
          ]),
        ]),
        el('tbody', {}, [
          el('tr', {}, [
            el('th', { scope: 'row' }, ['Result']),
            ...results.percentiles.map((p) =>
              el('td', { 'data-percent': p.percent }, [signedMoney(p.net, cur)]),
            ),
          ]),
        ]),
      ]),
    );
    this.command.textContent = ladderCommand(ladder, results.cards, seed);
  }
}
