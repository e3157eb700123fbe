import { localTime } from '@raspa/browser-kit';
import { CARD_MODELS, type FreeCardsState, type PlayRound, type PlayState } from '@raspa/core';
import type { Launch } from '../boot/launch.ts';
import type { GameConfig } from '../config.ts';
import { HostAnnouncer } from '../host/host-announcer.ts';
import { HostBridge } from '../host/host-bridge.ts';
import { createI18n, type I18n } from '../i18n/i18n.ts';
import { iconImages } from '../models/icon-images.ts';
import type { DrawContext, ModelArt } from '../models/model-art.ts';
import { MODEL_ART } from '../models/registry.ts';
import type { Answer, ConnectionStatus } from '../net/play-client.ts';
import { PlayClient } from '../net/play-client.ts';
import { CardScreen } from '../screens/card-screen.ts';
import { LoadingScreen } from '../screens/loading-screen.ts';
import { Tones } from '../sound/tones.ts';
import { freeCardsNote } from '../ui/free-cards-wording.ts';
import { HistoryPanel } from '../ui/history-panel.ts';
import { type Mode, Overlay } from '../ui/overlay.ts';
import { PlayerProtection } from './player-protection.ts';
import { Stage } from './stage.ts';

/**
 * The player's page: connects with the session token, draws the card of the session's model,
 * buys, lets the player scratch, reveals, and tells the operator's frame what happened. Every
 * state a player can meet is handled here: loading, insufficient funds, wallet unavailable,
 * session expired, a lost connection (the open round comes back with the same card), a round left
 * open in another tab (resumed).
 */
export class GameApp {
  private readonly tones = new Tones();
  private readonly overlay: Overlay;
  private readonly host: HostAnnouncer;
  private readonly motion = matchMedia('(prefers-reduced-motion: reduce)');
  private readonly ready: Promise<Stage | undefined>;
  private i18n: I18n;
  private client: PlayClient | undefined;
  private screen: CardScreen | undefined;
  private game: PlayState['game'] | undefined;
  private returnUrl: string | null;
  /** The round on the card, if any. */
  private round: PlayRound | null = null;
  private mode: Mode = 'loading';
  private loaded = false;
  private revealInFlight = false;
  private readonly history: HistoryPanel;
  /** The card art and drawing context of the session's model, for the history's past cards. */
  private drawing: { art: ModelArt; context: DrawContext } | undefined;
  /** The round on the card was a free one (the note then says when it was the last). */
  private lastRoundFree = false;
  private readonly protection: PlayerProtection;
  /** The session is over for good (ended, excluded, left): nothing may replace what the page says. */
  private over = false;

  constructor(
    private readonly launch: Launch,
    private readonly config: GameConfig,
    root: HTMLElement,
  ) {
    const app = this;
    this.i18n = createI18n(launch.lang);
    this.returnUrl = launch.returnUrl;
    this.overlay = new Overlay(root, this.i18n, {
      buy: () => void this.buy(),
      revealAll: () => {
        if (this.protection.revealAll) void this.reveal();
      },
      toggleSound: () => this.toggleSound(),
    });
    this.history = new HistoryPanel(this.i18n, {
      load: async () => this.client?.history() ?? { ok: false, code: 'OFFLINE' },
      drawing: () => this.drawing,
    });
    this.overlay.addToBar(this.history.button);
    this.host = new HostAnnouncer(new HostBridge(window, launch.sessionId, launch.framed));
    this.protection = new PlayerProtection(this.overlay, {
      get client() {
        return app.client;
      },
      get i18n() {
        return app.i18n;
      },
      get returnUrl() {
        return app.returnUrl;
      },
      say: (text, tone) => this.overlay.say(text, tone),
      end: (title, text) => this.end(title, text),
    });
    if (launch.model) this.overlay.setTheme(MODEL_ART[launch.model].palette);
    this.overlay.setI18n(this.i18n);
    this.setMode('loading');
    this.overlay.say(this.i18n.t('loading'));
    this.ready = this.startStage();
  }

  /** Connects at once (the renderer starts meanwhile), unless the token is already known to be dead. */
  start(): void {
    if (!this.launch.token || !this.launch.sessionKnown) {
      this.expire();
      return;
    }
    // Its gameUrl opened again after its operator ended it: said at once, without connecting.
    if (this.launch.ended) {
      this.protection.ended(this.launch.ended);
      return;
    }
    this.client = new PlayClient(
      this.launch.token,
      {
        status: (status) => this.onStatus(status),
        balance: (balance) => this.setBalance(balance),
        round: (round) => void this.onRoundPushed(round),
        ended: (code) => this.protection.ended(code),
      },
      this.config.net.requestTimeoutMs,
    );
  }

  private get reducedMotion(): boolean {
    return this.motion.matches;
  }

  private async startStage(): Promise<Stage | undefined> {
    const stage = await Stage.create(this.config, this.overlay.slot);
    if (!stage) {
      this.overlay.block(this.i18n.t('unsupported'), '', null);
      this.client?.close();
      return undefined;
    }
    stage.goTo(new LoadingScreen(this.reducedMotion));
    return stage;
  }

  private setMode(mode: Mode): void {
    this.mode = mode;
    this.overlay.setMode(mode, this.host.anyClosed);
    this.history.setAvailable(mode === 'idle' || mode === 'revealed');
  }

  // ——— connection ———

  private onStatus(status: ConnectionStatus): void {
    if (status === 'expired') {
      this.expire();
      return;
    }
    if (this.mode === 'blocked') return;
    if (status === 'offline') {
      this.overlay.setOnline(false);
      return;
    }
    if (status !== 'online') return;
    this.overlay.setOnline(true);
    if (!this.loaded) void this.load();
    else {
      this.overlay.say(this.i18n.t('reconnected'));
      void this.resync();
    }
  }

  /** The first state: theme, language, prize table, and the card (the open round's, or a fresh one). */
  private async load(): Promise<void> {
    const client = this.client;
    if (!client) return;
    performance.mark('raspa:online');
    const answer = await client.state();
    performance.mark('raspa:state');
    if (!answer.ok) {
      if (answer.code === 'SESSION_EXPIRED') this.expire();
      else if (this.protection.endsSession(answer.code)) return;
      else this.overlay.say(answer.message ?? this.i18n.error(answer.code), 'error');
      return;
    }
    const stage = await this.ready;
    if (!stage || this.loaded) return;
    this.loaded = true;
    const state = answer.data;
    this.game = state.game;
    this.returnUrl = state.returnUrl;
    this.i18n = createI18n(state.lang, state.game.currency);
    this.overlay.setI18n(this.i18n);
    this.history.setI18n(this.i18n);
    const art = MODEL_ART[state.game.gameModel];
    const info = CARD_MODELS[state.game.gameModel];
    this.overlay.setTheme(art.palette);
    this.overlay.setGame({
      info,
      price: state.game.price,
      levels: state.game.levels,
      sampling: state.game.sampling,
    });
    this.host.setGame(state.game.gameModel, state.game.currency, state.allowedOrigins);
    this.protection.apply(state.rules);
    this.protection.sessionFigures(state.session, state.openRound);
    this.setBalance(state.player.balance);
    this.setFreeCards(state.freeCards);
    this.showScreen(stage, art);
    const open = state.openRound;
    if (open && open.status === 'open') this.resume(open);
    else if (open && open.status === 'closing') void this.showClosed(open, this.i18n.t('resumed'));
    else {
      this.screen?.showCard(null);
      this.setMode('idle');
      this.overlay.say(this.i18n.t('idleHint'));
    }
    // The prize table's symbol images read pixels back from the GPU: only once the card is up.
    stage.markFirstCard(() => this.overlay.setIcons(iconImages(stage.renderer, art, info)));
  }

  private showScreen(stage: Stage, art: ModelArt): void {
    const context: DrawContext = {
      i18n: this.i18n,
      prize: (level) => this.i18n.money(this.game?.levels.find((each) => each.level === level)?.prize ?? 0),
    };
    this.drawing = { art, context };
    const screen = new CardScreen(document.body, art, stage.renderer, context, this.config);
    screen.foil.onScratch = () => this.tones.play('scratch');
    screen.foil.onThreshold = () => void this.reveal();
    this.screen = screen;
    stage.goTo(screen);
  }

  /** After a reconnect: the same open round keeps its card and scratches; a round closed meanwhile shows its result. */
  private async resync(): Promise<void> {
    const client = this.client;
    if (!client) return;
    const answer = await client.state();
    if (!answer.ok) {
      if (answer.code === 'SESSION_EXPIRED') this.expire();
      else this.protection.endsSession(answer.code);
      return;
    }
    this.setBalance(answer.data.player.balance);
    this.setFreeCards(answer.data.freeCards);
    this.protection.sessionFigures(answer.data.session, answer.data.openRound);
    const open = answer.data.openRound;
    const round = this.round;
    if (round && (this.mode === 'playing' || this.mode === 'revealing')) {
      if (open && open.roundId === round.roundId) {
        if (this.mode === 'revealing') void this.sendReveal();
        return;
      }
      await this.showClosed(round, this.i18n.t('closedElsewhere'));
      return;
    }
    if (open && open.status === 'open' && (this.mode === 'idle' || this.mode === 'revealed'))
      this.resume(open);
  }

  // ——— a round ———

  private async buy(): Promise<void> {
    const client = this.client;
    if (!client || (this.mode !== 'idle' && this.mode !== 'revealed')) return;
    if (!this.protection.mayBuy()) return;
    const previous = this.mode;
    this.setMode('buying');
    this.overlay.say('');
    const answer = await client.buy();
    if (answer.ok) {
      this.setBalance(answer.data.balance);
      this.tones.play('buy');
      this.protection.bought(answer.data.round);
      this.startRound(answer.data.round);
      this.setFreeCards(answer.data.freeCards);
      this.overlay.say(this.i18n.t(this.protection.scratchHint));
      return;
    }
    if (answer.code === 'ROUND_IN_PROGRESS') {
      // Bought in another tab: bring that card here.
      const state = await client.state();
      if (state.ok && state.data.openRound?.status === 'open') {
        this.setBalance(state.data.player.balance);
        this.resume(state.data.openRound);
        this.setFreeCards(state.data.freeCards);
        return;
      }
    }
    if (answer.code === 'SESSION_EXPIRED') {
      this.expire();
      return;
    }
    this.setMode(previous);
    if (this.protection.refused(answer)) return;
    this.fail(answer);
  }

  private fail(answer: Extract<Answer<unknown>, { ok: false }>): void {
    let text = answer.code === 'OFFLINE' ? this.i18n.t('offline') : this.i18n.error(answer.code);
    if (answer.code === 'INSUFFICIENT_FUNDS') text = `${text} ${this.i18n.t('addFunds')}`;
    document.documentElement.dataset.error = answer.code;
    this.overlay.say(text, 'error');
  }

  private startRound(round: PlayRound): void {
    this.round = round;
    this.lastRoundFree = round.price === 0;
    document.documentElement.dataset.roundId = round.roundId;
    delete document.documentElement.dataset.outcome;
    delete document.documentElement.dataset.error;
    this.screen?.showCard(round.card);
    if (this.screen) this.screen.foil.enabled = true;
    this.setMode('playing');
    this.host.roundOpened(round);
  }

  private resume(round: PlayRound): void {
    this.startRound(round);
    this.overlay.say(this.i18n.t('resumed'));
  }

  /** Takes the foil off (scratched past the threshold, or "reveal all"), shows the result, closes the round. */
  private async reveal(): Promise<void> {
    const round = this.round;
    const screen = this.screen;
    if (this.mode !== 'playing' || !round || !screen) return;
    this.setMode('revealing');
    performance.mark('raspa:revealing');
    this.tones.play('reveal');
    await screen.foil.uncover(this.reducedMotion ? 0 : this.config.scratch.fadeOutMs);
    this.showOutcome(round);
    await this.sendReveal();
  }

  private async sendReveal(): Promise<void> {
    const client = this.client;
    const round = this.round;
    if (!client || !round || this.revealInFlight || this.mode !== 'revealing') return;
    this.revealInFlight = true;
    const answer = await client.reveal(round.roundId);
    this.revealInFlight = false;
    if (answer.ok) {
      this.round = answer.data.round;
      if (answer.data.balance !== null) this.setBalance(answer.data.balance);
      this.finishRound(answer.data.round);
      return;
    }
    switch (answer.code) {
      case 'OFFLINE':
        // Sent again once the connection is back (resync); a slow answer is retried here.
        if (client.online) window.setTimeout(() => void this.sendReveal(), 2000);
        return;
      case 'SESSION_EXPIRED':
        this.expire();
        return;
      case 'ROUND_NOT_FOUND':
        // Already closed (another tab, the idle time-out): the prize is paid either way.
        this.finishRound(round);
        void this.refreshBalance();
        return;
      default:
        this.fail(answer);
        window.setTimeout(() => void this.sendReveal(), 3000);
    }
  }

  private finishRound(round: PlayRound): void {
    this.protection.roundNews(round);
    this.host.roundClosed(round);
    this.setMode('revealed');
    if (round.prizePending)
      this.overlay.say(this.i18n.t('prizePending', { prize: this.i18n.money(round.prize) }));
  }

  private showOutcome(round: PlayRound): void {
    const screen = this.screen;
    if (!screen) return;
    const animate = !this.reducedMotion;
    const won = round.level > 0;
    const prize = this.i18n.money(round.prize);
    document.documentElement.dataset.outcome = won ? 'won' : 'lost';
    document.documentElement.dataset.celebration = won && animate ? 'confetti' : 'still';
    if (won) {
      screen.card.highlightWin(round.card, animate);
      screen.card.showResult(true, { title: this.i18n.t('wonBanner'), detail: prize }, animate);
      if (animate) screen.celebrate(screen.card.art.palette.confetti);
      this.tones.play('win');
      this.overlay.say(this.i18n.t('won', { prize }), 'win');
    } else {
      screen.card.showResult(false, { title: this.i18n.t('lostBanner'), detail: '' }, animate);
      this.tones.play('lose');
      this.overlay.say(this.i18n.t('lost'), 'loss');
    }
  }

  /** A round that closed without this page (time-out, another tab): its result, then done. */
  private async showClosed(round: PlayRound, note: string): Promise<void> {
    const screen = this.screen;
    if (!screen) return;
    if (this.round?.roundId !== round.roundId) this.startRound(round);
    this.round = round;
    this.setMode('revealing');
    await screen.foil.uncover(0);
    this.showOutcome(round);
    this.overlay.say(note);
    this.finishRound(round);
  }

  private async onRoundPushed(round: PlayRound): Promise<void> {
    if (!this.round || round.roundId !== this.round.roundId) return;
    if (round.status !== 'closed' && round.status !== 'closing') return;
    if (this.mode === 'playing') {
      await this.showClosed(round, this.i18n.t('closedElsewhere'));
      return;
    }
    this.round = round;
    this.protection.roundNews(round);
    if (this.mode === 'revealing' && !this.revealInFlight) this.finishRound(round);
    if (this.mode === 'revealed' && round.status === 'closed' && round.level > 0) {
      this.overlay.say(this.i18n.t('won', { prize: this.i18n.money(round.prize) }), 'win');
    }
  }

  private async refreshBalance(): Promise<void> {
    const answer = await this.client?.state();
    if (answer?.ok) this.setBalance(answer.data.player.balance);
  }

  // ——— money, sound, the end ———

  private setBalance(balance: number | null): void {
    this.overlay.setBalance(balance);
    if (balance !== null) this.host.balance(balance);
  }

  /** The free cards left (from `state` and each buy's answer): on the buy button and in the note. */
  private setFreeCards(freeCards: FreeCardsState): void {
    const note = freeCardsNote(this.i18n, {
      freeCards,
      lastRoundFree: this.lastRoundFree,
      now: Date.now(),
      time: (iso) => localTime(iso, this.i18n.lang),
    });
    this.overlay.setFreeCards(freeCards.count, note);
  }

  private toggleSound(): void {
    this.tones.setEnabled(!this.tones.enabled);
    this.overlay.setSound(this.tones.enabled);
  }

  /** The session is over for good, said with these words (ended, excluded, the player left). */
  private end(title: string, text: string): void {
    this.over = true;
    this.client?.close();
    this.protection.stop();
    this.overlay.block(title, text, this.returnUrl);
    this.mode = 'blocked';
  }

  private expire(): void {
    if (this.over) return;
    document.documentElement.dataset.session = 'expired';
    this.end(this.i18n.t('sessionExpiredTitle'), this.i18n.error('SESSION_EXPIRED'));
  }
}
