import { type Ladder, PLAYER_RESULTS_DEFAULTS, type PlayerResults, toMajor } from '@raspa/core';
import { resultsChart } from '../charts/results-chart.ts';
import { fill, h } from './dom.ts';
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
  private readonly status = h('p', { class: 'status', role: 'status' });
  private readonly tiles = h('div', { class: 'tiles' });
  private readonly percentiles = h('div', { class: 'table-wrap' });
  private readonly chart = h('figure', { class: 'chart-box' });
  private readonly command = h('code', { class: 'command' });

  constructor(inputs: HTMLElement) {
    this.root = h(
      'section',
      { class: 'players', 'aria-label': 'A player’s result over N cards', 'data-state': 'idle' },
      [
        h('h3', {}, ['A player’s result over N cards']),
        h('p', { class: 'lead' }, [
          `${count(PLAYER_RESULTS_DEFAULTS.trials)} simulated players each buy N cards in a row, every card drawn with the ladder’s odds.`,
        ]),
        inputs,
        this.status,
        this.tiles,
        this.chart,
        this.percentiles,
        h('p', { class: 'hint' }, ['The same figures in a terminal: ', this.command]),
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
      h('figcaption', {}, ['Each bar is 1% of the players, from the worst result to the best.']),
    ]);
    this.percentiles.replaceChildren(
      h('table', { class: 'percentiles', 'data-percentiles': '' }, [
        h('thead', {}, [
          h('tr', {}, [
            h('th', { scope: 'row' }, ['Percentile']),
            ...results.percentiles.map((p) => h('th', { scope: 'col' }, [`${p.percent}%`])),
          ]),
        ]),
        h('tbody', {}, [
          h('tr', {}, [
            h('th', { scope: 'row' }, ['Result']),
            ...results.percentiles.map((p) =>
              h('td', { 'data-percent': p.percent }, [signedMoney(p.net, cur)]),
            ),
          ]),
        ]),
      ]),
    );
    this.command.textContent = ladderCommand(ladder, results.cards, seed);
  }
}
