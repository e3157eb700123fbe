import { el, fill } from '@raspa/browser-kit';
import type { Ladder, PoolSimulationState } from '@raspa/core';
import { rtpChart } from '../charts/rtp-chart.ts';
import {
  MAX_SIMULATED_TICKETS,
  type PoolRun,
  type SimulationClient,
} from '../simulation/simulation-client.ts';
import { tile } from './figures-view.ts';
import { count, money, percent, seconds, shortMoney } from './format.ts';

type PoolState = 'idle' | 'running' | 'done' | 'cancelled' | 'stale' | 'failed';

/**
 * Plays the pool in the order the service would draw it (a keyed permutation of a fresh random
 * seed) in a Web Worker, with a progress bar and cancel: the running RTP shows how far from the
 * average a pool wanders before it ends exactly on the ladder.
 */
export class PoolView {
  readonly root: HTMLElement;
  private readonly play = el('button', { type: 'button', class: 'primary', 'data-action': 'simulate' }, [
    'Play the pool',
  ]);
  private readonly cancel = el('button', { type: 'button', 'data-action': 'cancel', disabled: true }, [
    'Cancel',
  ]);
  private readonly progress = el('progress', { max: 1, value: 0, 'aria-label': 'Tickets drawn' });
  private readonly status = el('p', { class: 'status', role: 'status' }, ['Not played yet.']);
  private readonly tiles = el('div', { class: 'tiles' });
  private readonly chart = el('figure', { class: 'chart-box' });
  private readonly seedLine = el('p', { class: 'hint seed' });
  private ladder: Ladder | null = null;
  private run: PoolRun | null = null;

  constructor(private readonly client: SimulationClient) {
    this.root = el('section', { class: 'pool', 'aria-label': 'Pool simulation', 'data-state': 'idle' }, [
      el('h3', {}, ['Play the pool']),
      el('p', { class: 'lead' }, [
        'Draws every ticket in the order the service would, from a fresh random seed, in a Web Worker.',
      ]),
      el('div', { class: 'actions' }, [this.play, this.cancel]),
      this.progress,
      this.status,
      this.tiles,
      this.chart,
      this.seedLine,
    ]);
    this.play.addEventListener('click', () => void this.start());
    this.cancel.addEventListener('click', () => this.run?.cancel());
  }

  /** The configuration changed: a run in progress is cancelled, a finished one is marked stale. */
  setLadder(ladder: Ladder | null): void {
    const changed =
      this.ladder !== null && ladder !== null && JSON.stringify(this.ladder) !== JSON.stringify(ladder);
    this.ladder = ladder;
    this.play.disabled = ladder === null || this.state === 'running';
    if (ladder) {
      const tickets = Math.min(ladder.sampling, MAX_SIMULATED_TICKETS);
      this.play.textContent =
        tickets === ladder.sampling
          ? `Play the whole pool (${count(tickets)} tickets)`
          : `Play the first ${count(tickets)} of ${count(ladder.sampling)} tickets`;
    }
    if (!changed && ladder !== null) return;
    if (this.state === 'running') this.run?.cancel();
    if (this.state === 'done' || this.state === 'cancelled') {
      this.setState('stale');
      this.status.textContent = 'The settings changed since this run: play the pool again.';
    }
  }

  private get state(): PoolState {
    return (this.root.dataset.state as PoolState | undefined) ?? 'idle';
  }

  private setState(state: PoolState): void {
    this.root.dataset.state = state;
    this.play.disabled = state === 'running' || this.ladder === null;
    this.cancel.disabled = state !== 'running';
  }

  private async start(): Promise<void> {
    const ladder = this.ladder;
    if (!ladder || this.state === 'running') return;
    const tickets = Math.min(ladder.sampling, MAX_SIMULATED_TICKETS);
    const seed = crypto.getRandomValues(new Uint8Array(32));
    const target = ladder.levels.reduce((sum, level) => sum + level.totalPrize, 0) / ladder.totalAmount;
    this.setState('running');
    this.progress.value = 0;
    this.status.textContent = `Drawing ${count(tickets)} tickets…`;
    this.seedLine.textContent = `Pool seed ${Array.from(seed, (b) => b.toString(16).padStart(2, '0')).join('')}`;
    const run = this.client.playPool(ladder, seed, tickets, (state, elapsedMs) => {
      if (this.run === run) this.draw(ladder, state, target, elapsedMs);
    });
    this.run = run;
    try {
      const result = await run.finished;
      if (this.run !== run) return;
      if (result) {
        this.draw(ladder, result.state, target, result.elapsedMs);
        this.setState(this.ladder === ladder ? 'done' : 'stale');
      } else {
        this.setState(this.ladder === ladder ? 'cancelled' : 'stale');
        this.status.textContent = `${this.status.textContent} Cancelled.`;
      }
    } catch (error) {
      this.setState('failed');
      this.status.textContent = `The simulation failed: ${(error as Error).message}`;
    } finally {
      if (this.run === run) this.run = null;
    }
  }

  private draw(ladder: Ladder, state: PoolSimulationState, target: number, elapsedMs: number): void {
    const cur = ladder.currency;
    const rate = state.drawn / Math.max(elapsedMs / 1000, 1e-3);
    this.progress.value = state.drawn / state.tickets;
    this.status.textContent = `${count(state.drawn)} of ${count(state.tickets)} tickets drawn in ${seconds(elapsedMs)} (${count(
      Math.round(rate),
    )} tickets/s).`;
    this.root.dataset.drawn = String(state.drawn);
    const exact =
      state.done &&
      state.drawn === ladder.sampling &&
      state.winners.every((n, i) => n === ladder.levels[i]?.winners);
    const top = state.winners[state.winners.length - 1] ?? 0;
    fill(this.tiles, [
      tile('RTP so far', percent(state.rtp, 4), `ladder ${percent(target, 4)}`, 'pool-rtp'),
      tile(
        'Paid out',
        shortMoney(state.paid, cur),
        `of ${shortMoney(state.staked, cur)} staked`,
        'pool-paid',
        money(state.paid, cur),
      ),
      tile(
        'Longest dry run',
        `${count(state.longestLosingStreak)} cards`,
        'losing tickets in a row',
        'pool-streak',
      ),
      tile(
        'Top prizes drawn',
        count(top),
        state.topPrizeDraws[0] === undefined
          ? 'none yet'
          : `first at ticket ${count(state.topPrizeDraws[0] + 1)}`,
        'pool-top',
      ),
    ]);
    fill(this.chart, [
      rtpChart(state, target),
      el('figcaption', {}, [
        'Running RTP as the pool is drawn; ticks under the axis mark the top prizes.',
        exact ? ' The whole pool drew exactly the ladder’s winners of every level.' : '',
      ]),
    ]);
  }
}
