import { el, fill } from '@raspa/browser-kit';
import type { Ladder, LadderStats } from '@raspa/core';
import { moneyChart } from '../charts/money-chart.ts';
import { count, money, multiple, odds, percent, shortMoney } from './format.ts';

/** A headline figure: what it is, its value (the exact one on hover when shortened), one line of context. */
export function tile(name: string, value: string, detail: string, key: string, exact?: string): HTMLElement {
  return el('div', { class: 'tile', 'data-figure': key }, [
    el('span', { class: 'tile-name' }, [name]),
    el('strong', { class: 'tile-value', title: exact !== value ? exact : undefined }, [value]),
    el('span', { class: 'tile-detail' }, [detail]),
  ]);
}

/** The ladder and what a designer reads off it: the headline figures, the table, the money chart. */
export class FiguresView {
  readonly root = el('section', { class: 'figures', 'aria-label': 'Ladder and figures' });
  private readonly tiles = el('div', { class: 'tiles' });
  private readonly table = el('div', { class: 'table-wrap' });
  private readonly chart = el('figure', { class: 'chart-box' });
  private readonly notice = el('p', { class: 'notice', role: 'status', hidden: true });

  constructor() {
    this.root.append(
      this.notice,
      this.tiles,
      el('h3', {}, ['The ladder']),
      this.table,
      el('h3', {}, ['Where the money goes']),
      this.chart,
    );
  }

  show(ladder: Ladder, stats: LadderStats): void {
    this.root.classList.remove('stale');
    this.notice.hidden = true;
    const cur = ladder.currency;
    const top = ladder.levels[ladder.levels.length - 1];
    fill(this.tiles, [
      tile('Any win', odds(stats.overallOdds), `hit rate ${percent(stats.hitRate)}`, 'overall-odds'),
      tile(
        'Realised RTP',
        stats.realisedRtp.toFixed(6),
        `asked ${(ladder.rtpPpm / 1e6).toFixed(6)}`,
        'realised-rtp',
      ),
      tile(
        'Average win',
        shortMoney(stats.averageWin, cur),
        `per winning ticket · ${multiple(stats.averageWin / ladder.betPrice)} the ticket`,
        'average-win',
        money(stats.averageWin, cur),
      ),
      tile(
        'Top prize',
        `${multiple(stats.topPrizeMultiple)}`,
        `${shortMoney(ladder.maxBetPrize, cur)} · ${odds(top ? ladder.sampling / top.winners : Number.NaN)}`,
        'top-prize',
      ),
      tile(
        'A pool',
        `${count(ladder.sampling)} tickets`,
        `stakes ${shortMoney(ladder.totalAmount, cur)} · pays ${shortMoney(stats.totalPaid, cur)}`,
        'pool',
      ),
    ]);
    this.table.replaceChildren(ladderTable(ladder, stats));
    fill(this.chart, [
      moneyChart(ladder),
      el('figcaption', {}, [
        'Each level’s share of the money paid out (',
        money(ladder.totalDistribuitionAmount, cur),
        ' per pool), beside its share of the winning tickets.',
      ]),
    ]);
  }

  /** The inputs break a rule: the last good ladder stays, dimmed, under the reason. */
  showStale(reason: string): void {
    this.root.classList.add('stale');
    this.notice.textContent = `No ladder for these inputs: ${reason} The figures below are from the last valid inputs.`;
    this.notice.hidden = false;
  }
}

function ladderTable(ladder: Ladder, stats: LadderStats): HTMLTableElement {
  const cur = ladder.currency;
  const head = ['Level', 'Winners', 'Prize', 'Total prize', 'Percentage', 'Odds'];
  return el('table', { class: 'ladder', 'data-ladder': '' }, [
    el('thead', {}, [
      el(
        'tr',
        {},
        head.map((name) => el('th', { scope: 'col' }, [name])),
      ),
    ]),
    el(
      'tbody',
      {},
      ladder.levels.map((level, i) =>
        el('tr', { 'data-level': level.level }, [
          el('th', { scope: 'row' }, [String(level.level)]),
          el('td', { 'data-col': 'winners' }, [count(level.winners)]),
          el('td', { 'data-col': 'prize' }, [money(level.prize, cur)]),
          el('td', { 'data-col': 'totalPrize' }, [money(level.totalPrize, cur)]),
          el('td', { 'data-col': 'percentage' }, [percent(level.percentage, 4)]),
          el('td', { 'data-col': 'odds' }, [odds(stats.levelOdds[i] ?? Number.NaN)]),
        ]),
      ),
    ),
    el('tfoot', {}, [
      el('tr', {}, [
        el('th', { scope: 'row' }, ['All']),
        el('td', {}, [count(ladder.totalPrized)]),
        el('td', {}, []),
        el('td', {}, [money(stats.totalPaid, cur)]),
        el('td', {}, [percent(stats.totalPaid / ladder.totalDistribuitionAmount, 4)]),
        el('td', {}, [odds(stats.overallOdds)]),
      ]),
    ]),
  ]);
}
