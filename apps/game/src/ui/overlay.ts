import { el } from '@raspa/browser-kit';
import type { CardModelInfo } from '@raspa/core';
import type { I18n } from '../i18n/i18n.ts';
import type { Palette } from '../models/model-art.ts';
import { buyLabel } from './free-cards-wording.ts';
import { type LadderLevel, prizeTable } from './prize-table.ts';

/** What the page is doing, as the controls see it. Also written to `<html data-state>` for QA tools. */
export type Mode = 'loading' | 'idle' | 'buying' | 'playing' | 'revealing' | 'revealed' | 'blocked';
export type Tone = 'info' | 'win' | 'loss' | 'error';

export interface OverlayActions {
  buy(): void;
  revealAll(): void;
  toggleSound(): void;
}

export interface GameInfo {
  info: CardModelInfo;
  price: number;
  levels: readonly LadderLevel[];
  sampling: number;
}

/**
 * The HTML around the card: title, balance and price, the prize table, the rule, the buy and
 * reveal-all buttons (real buttons with `data-action`, docs/contract.md §8), the sound toggle, a live
 * region for messages, the connection banner and the blocking panel (session expired). The card
 * itself is drawn by Pixi under the empty slot this layout leaves.
 */
export class Overlay {
  readonly slot: HTMLElement;
  private readonly title = el('h1', { class: 'title' });
  private readonly balanceLabel = el('span', { class: 'label' });
  private readonly balanceValue = el('output', { class: 'value', 'data-balance': '' }, ['—']);
  private readonly priceLabel = el('span', { class: 'label' });
  private readonly priceValue = el('span', { class: 'value' }, ['—']);
  private readonly soundButton = el('button', {
    type: 'button',
    class: 'icon-button sound',
    'data-action': 'sound',
    'aria-pressed': 'false',
  });
  private readonly prizesButton = el('button', {
    type: 'button',
    class: 'prizes-toggle',
    'data-action': 'prizes',
    'aria-expanded': 'false',
    'aria-controls': 'prize-panel',
  });
  private readonly side = el('aside', { class: 'side', id: 'prize-panel' });
  private readonly rule = el('p', { class: 'rule' });
  private readonly buyButton = el('button', { type: 'button', class: 'primary', 'data-action': 'buy' });
  private readonly revealButton = el('button', {
    type: 'button',
    class: 'secondary',
    'data-action': 'reveal-all',
  });
  private readonly status = el('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
  /** How many free cards are left (ui/free-cards-wording.ts), under the status; empty when none. */
  private readonly freeNote = el('p', { class: 'free-cards-note', role: 'status', hidden: true });
  private readonly banner = el('div', { class: 'connection', role: 'alert', hidden: true });
  private readonly blocker = el('div', {
    class: 'blocker',
    hidden: true,
    role: 'alertdialog',
    'aria-modal': 'true',
  });
  private i18n: I18n;
  private game: GameInfo | undefined;
  private mode: Mode = 'loading';
  private another = false;
  private online = true;
  private soundOn = false;
  private pendingReveal = false;
  private icons: ReadonlyMap<string, string> = new Map();
  private prizesOpen = false;
  private freeCount = 0;
  /** Seconds until the next buy may start (the jurisdiction's gap), or null: no wait. */
  private buyWait: number | null = null;
  private readonly footer: HTMLElement;

  constructor(
    private readonly root: HTMLElement,
    i18n: I18n,
    actions: OverlayActions,
  ) {
    this.i18n = i18n;
    this.slot = el('div', { class: 'slot', 'data-card-slot': '' });
    const bar = el('header', { class: 'bar' }, [
      this.title,
      el('div', { class: 'figure balance' }, [this.balanceLabel, this.balanceValue]),
      el('div', { class: 'figure price' }, [this.priceLabel, this.priceValue]),
      this.prizesButton,
      this.soundButton,
    ]);
    const controls = el('div', { class: 'controls' }, [this.revealButton, this.buyButton]);
    this.footer = el('footer', { class: 'footer' }, [this.status, this.freeNote, controls]);
    root.replaceChildren(bar, this.slot, this.rule, this.footer, this.side, this.banner, this.blocker);
    this.buyButton.addEventListener('click', () => actions.buy());
    this.revealButton.addEventListener('click', () => actions.revealAll());
    this.soundButton.addEventListener('click', () => actions.toggleSound());
    this.prizesButton.addEventListener('click', () => this.togglePrizes());
    root.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && this.prizesOpen) this.togglePrizes(false);
    });
    this.render();
  }

  setI18n(i18n: I18n): void {
    this.i18n = i18n;
    document.documentElement.lang = i18n.lang;
    this.render();
  }

  setTheme(palette: Palette): void {
    const style = document.documentElement.style;
    const { page } = palette;
    style.setProperty('--bg-top', page.top);
    style.setProperty('--bg-bottom', page.bottom);
    style.setProperty('--text', page.text);
    style.setProperty('--panel', page.panel);
    style.setProperty('--panel-text', page.panelText);
    style.setProperty('--accent', page.accent);
    style.setProperty('--accent-text', page.accentText);
  }

  setGame(game: GameInfo): void {
    this.game = game;
    document.title = `${game.info.title} · Raspa`;
    this.render();
  }

  setIcons(icons: ReadonlyMap<string, string>): void {
    this.icons = icons;
    this.renderPrizes();
  }

  setBalance(balance: number | null): void {
    this.balanceValue.textContent = balance === null ? '—' : this.i18n.money(balance);
    this.balanceValue.dataset.balance = balance === null ? '' : String(balance);
  }

  /** The mode decides which buttons work; `another` turns "Buy" into "Buy another". */
  setMode(mode: Mode, another = this.another): void {
    this.mode = mode;
    this.another = another;
    document.documentElement.dataset.state = mode;
    this.renderControls();
  }

  setOnline(online: boolean): void {
    if (online === this.online) return;
    this.online = online;
    this.banner.hidden = online;
    this.banner.textContent = online ? '' : this.i18n.t('connectionLost');
    document.documentElement.dataset.connection = online ? 'online' : 'offline';
    this.renderControls();
  }

  /** A reveal is waiting for the server (sent again after a reconnect): no new card meanwhile. */
  setPendingReveal(pending: boolean): void {
    this.pendingReveal = pending;
    this.renderControls();
  }

  /** The player's free cards: the buy button says it is free while any are left, the note how many. */
  setFreeCards(count: number, note: string): void {
    this.freeCount = count;
    this.freeNote.textContent = note;
    this.freeNote.hidden = note === '';
    this.buyButton.dataset.freeCards = String(count);
    this.renderControls();
  }

  /** A control of another part of the page (the history's button), placed in the bar before the sound toggle. */
  addToBar(control: HTMLElement): void {
    this.soundButton.before(control);
  }

  setSound(on: boolean): void {
    this.soundOn = on;
    this.renderSound();
  }

  say(text: string, tone: Tone = 'info'): void {
    this.status.textContent = text;
    this.status.dataset.tone = tone;
  }

  /** Covers the page with a message and nothing else to do (session expired, no WebGL). */
  block(title: string, text: string, returnUrl: string | null): void {
    const children: Array<Node | string> = [el('h2', {}, [title]), el('p', {}, [text])];
    if (returnUrl && /^https?:\/\//.test(returnUrl)) {
      children.push(
        el('a', { class: 'primary', href: returnUrl, target: '_top', rel: 'noopener' }, [
          this.i18n.t('backToSite'),
        ]),
      );
    }
    this.blocker.replaceChildren(el('div', { class: 'blocker-box' }, children));
    this.blocker.setAttribute('aria-label', title);
    this.blocker.hidden = false;
    this.banner.hidden = true;
    this.setMode('blocked');
  }

  /** A band above the status and buttons (the session's rules bar), always in view. */
  addToFooter(node: HTMLElement): void {
    this.footer.prepend(node);
  }

  /** A layer over the page (a modal dialog); it brings its own position. */
  addLayer(node: HTMLElement): void {
    this.root.append(node);
  }

  /** Whether "Reveal all" is offered at all (a jurisdiction may allow scratching only). */
  setRevealAllOffered(offered: boolean): void {
    this.revealButton.hidden = !offered;
  }

  /** The buy button waits out the time between buys, counting down; null gives it back. */
  setBuyWait(seconds: number | null): void {
    if (seconds === this.buyWait) return;
    this.buyWait = seconds;
    this.renderControls();
  }

  private togglePrizes(open = !this.prizesOpen): void {
    this.prizesOpen = open;
    this.prizesButton.setAttribute('aria-expanded', String(open));
    this.root.classList.toggle('prizes-open', open);
  }

  private render(): void {
    const { i18n } = this;
    this.balanceLabel.textContent = i18n.t('balance');
    this.priceLabel.textContent = i18n.t('price');
    this.prizesButton.textContent = i18n.t('prizes');
    this.revealButton.textContent = i18n.t('revealAll');
    if (this.game) {
      this.title.textContent = this.game.info.title;
      this.priceValue.textContent = i18n.money(this.game.price);
      this.rule.textContent = i18n.pick(this.game.info.ruleText);
    }
    if (!this.online) this.banner.textContent = i18n.t('connectionLost');
    this.renderSound();
    this.renderPrizes();
    this.renderControls();
  }

  private renderSound(): void {
    const label = this.i18n.t(this.soundOn ? 'soundOn' : 'soundOff');
    this.soundButton.setAttribute('aria-pressed', String(this.soundOn));
    this.soundButton.setAttribute('aria-label', label);
    this.soundButton.title = label;
    this.soundButton.replaceChildren(speakerIcon(this.soundOn));
  }

  private renderPrizes(): void {
    if (!this.game) return;
    const { info, levels, sampling } = this.game;
    this.side.replaceChildren(
      el('h2', {}, [this.i18n.t('howToWin')]),
      el('p', { class: 'side-rule' }, [this.i18n.pick(info.ruleText)]),
      prizeTable(this.i18n, info, levels, sampling, this.icons),
    );
  }

  private renderControls(): void {
    const price = this.game ? this.i18n.money(this.game.price) : '';
    const buying = this.mode === 'buying';
    // The countdown shows once the card is done; while one is in play the button is off anyway.
    const waiting = this.buyWait !== null && (this.mode === 'idle' || this.mode === 'revealed');
    this.buyButton.textContent = buying
      ? this.i18n.t('buying')
      : waiting
        ? this.i18n.t('nextCardIn', { s: this.buyWait ?? 0 })
        : buyLabel(this.i18n, this.freeCount, this.another, price);
    if (waiting) this.buyButton.dataset.wait = String(this.buyWait);
    else delete this.buyButton.dataset.wait;
    const canBuy =
      (this.mode === 'idle' || this.mode === 'revealed') && this.online && !this.pendingReveal && !waiting;
    this.buyButton.disabled = !canBuy;
    this.buyButton.setAttribute('aria-busy', String(buying));
    this.revealButton.disabled = this.mode !== 'playing';
  }
}

/** A speaker, with sound waves when on and a cross when off (drawn here: no icon font, no emoji). */
function speakerIcon(on: boolean): SVGSVGElement {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', '22');
  svg.setAttribute('height', '22');
  svg.setAttribute('aria-hidden', 'true');
  const path = (d: string, fill: boolean) => {
    const node = document.createElementNS(ns, 'path');
    node.setAttribute('d', d);
    node.setAttribute('fill', fill ? 'currentColor' : 'none');
    node.setAttribute('stroke', 'currentColor');
    node.setAttribute('stroke-width', fill ? '1' : '2');
    node.setAttribute('stroke-linecap', 'round');
    svg.append(node);
  };
  path('M3 9h4l5-4v14l-5-4H3z', true);
  if (on) path('M15.5 8.5a5 5 0 0 1 0 7M18.5 5.5a9 9 0 0 1 0 13', false);
  else path('M16 9l6 6M22 9l-6 6', false);
  return svg;
}
