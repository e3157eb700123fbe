import { el } from '@raspa/browser-kit';
import { PLAYER_RESULTS_DEFAULTS } from '@raspa/core';
import {
  type ConfigField,
  type Figures,
  figuresOf,
  playerInputOf,
  type SandboxConfig,
} from '../config/sandbox-config.ts';
import { SimulationClient } from '../simulation/simulation-client.ts';
import { ConfigForm } from './config-form.ts';
import { debounce } from './debounce.ts';
import { ExportView } from './export-view.ts';
import { FiguresView } from './figures-view.ts';
import { PlayersView } from './players-view.ts';
import { PoolView } from './pool-view.ts';
import { PreviewView } from './preview-view.ts';

/**
 * One configuration and everything that follows from it: the inputs, the ladder and its figures
 * (at once, on every keystroke), the player results and the pool (in workers), the card preview
 * and the export. Two panels side by side compare two configurations.
 */
export class ConfigPanel {
  readonly root: HTMLElement;
  private config: SandboxConfig;
  private figures: Figures;
  private readonly form: ConfigForm;
  private readonly figuresView = new FiguresView();
  private readonly playersView: PlayersView;
  private readonly poolView: PoolView;
  private readonly previewView = new PreviewView();
  private readonly exportView: ExportView;
  private playersClient = new SimulationClient();
  private playersInFlight = false;
  private readonly poolClient = new SimulationClient();
  private playersKey = '';
  private playersTurn = 0;
  private readonly schedulePlayers = debounce(() => void this.runPlayers(), 120);

  constructor(
    readonly name: string,
    config: SandboxConfig,
    private readonly onChange: (config: SandboxConfig) => void,
  ) {
    this.config = config;
    this.figures = figuresOf(config);
    this.form = new ConfigForm(config, (field, value) => this.change(field, value));
    this.playersView = new PlayersView(this.form.playerInputs);
    this.poolView = new PoolView(this.poolClient);
    this.exportView = new ExportView(
      () => this.config,
      (imported) => {
        this.setConfig(imported);
        this.onChange(this.config);
      },
    );
    this.root = el('section', { class: 'panel', 'data-panel': name, 'aria-label': `Configuration ${name}` }, [
      el('div', { class: 'panel-inputs' }, [el('h2', {}, [`Configuration ${name}`]), this.form.root]),
      el('div', { class: 'panel-body' }, [
        this.figuresView.root,
        this.playersView.root,
        this.poolView.root,
        this.previewView.root,
        this.exportView.root,
      ]),
    ]);
    this.update();
  }

  get current(): SandboxConfig {
    return this.config;
  }

  setConfig(config: SandboxConfig): void {
    this.config = config;
    this.form.set(config);
    this.update();
  }

  markDifferences(other: SandboxConfig | null): void {
    this.form.markDifferences(other);
  }

  destroy(): void {
    this.playersClient.terminate();
    this.poolClient.terminate();
    this.previewView.destroy();
    this.root.remove();
  }

  private change(field: ConfigField, value: string): void {
    this.config = { ...this.config, [field]: value };
    this.update();
    this.onChange(this.config);
  }

  /** Everything the core computes at once: the ladder, its problems, the figures. */
  private update(): void {
    const figures = figuresOf(this.config);
    this.figures = figures;
    this.root.dataset.valid = String(figures.ok);
    if (figures.ok) {
      this.form.showProblems([]);
      this.figuresView.show(figures.ladder, figures.stats);
    } else {
      this.form.showProblems(figures.problems);
      this.figuresView.showStale(`${figures.problems.map((problem) => problem.message).join('; ')}.`);
    }
    const ladder = figures.ok ? figures.ladder : null;
    this.poolView.setLadder(ladder);
    this.previewView.set(ladder, this.config.lang);
    this.exportView.set(ladder, this.config.lang);
    const players = playerInputOf(this.config);
    this.form.showPlayerProblem(players.ok ? null : players);
    if (ladder && players.ok) {
      this.schedulePlayers();
      return;
    }
    this.playersKey = '';
    this.playersTurn++;
    this.playersView.unavailable(players.ok ? 'No ladder for these inputs.' : players.message);
  }

  private async runPlayers(): Promise<void> {
    const figures = this.figures;
    const players = playerInputOf(this.config);
    if (!figures.ok || !players.ok) return;
    const key = JSON.stringify([figures.ladder, players.cards, players.seed]);
    if (key === this.playersKey) return;
    this.playersKey = key;
    const turn = ++this.playersTurn;
    this.playersView.pending();
    if (this.playersInFlight) {
      // A long run (many cards) for settings already gone: drop it rather than queue behind it.
      this.playersClient.terminate();
      this.playersClient = new SimulationClient();
    }
    this.playersInFlight = true;
    try {
      const { results, elapsedMs } = await this.playersClient.playerResults(
        figures.ladder,
        players.cards,
        PLAYER_RESULTS_DEFAULTS.trials,
        players.seed,
      );
      if (turn === this.playersTurn) this.playersView.show(figures.ladder, results, players.seed, elapsedMs);
    } catch (error) {
      if (turn === this.playersTurn)
        this.playersView.unavailable(`The simulation failed: ${(error as Error).message}`);
    }
  }
}
