import { el, fill, percent } from '@raspa/browser-kit';
import type { I18n } from '../i18n/i18n.ts';
import { formatElapsed, NOTHING_SHOWN, type RulesShown, showsAnything } from '../rules/rules-shown.ts';

/** How often the elapsed time is redrawn: it shows seconds, and its value is always read from the clock. */
const TICK_MS = 250;

/**
 * The session's play rules on screen (docs/player-protection.md): under GB the elapsed time and the
 * net position, always in view and kept current; under BR the game's RTP, "18+" and the
 * responsible-gaming link. Hidden when the jurisdiction asks for none of it. The elapsed time is a
 * `timer` (not announced every second); the net position is `status`-free text read on demand.
 */
export class SessionRulesBar {
  readonly element = el('div', { class: 'rules-bar', 'data-rules-bar': '', hidden: true });
  private shown: RulesShown = NOTHING_SHOWN;
  private i18n: I18n;
  private startedAt = 0;
  private net = 0;
  private readonly elapsedValue = el('span', { class: 'value', role: 'timer', 'data-elapsed': '' });
  private readonly netValue = el('span', { class: 'value', 'data-net': '' });
  private ticker: number | undefined;

  constructor(
    i18n: I18n,
    private readonly now: () => number = Date.now,
  ) {
    this.i18n = i18n;
  }

  show(shown: RulesShown, i18n: I18n, startedAt: number): void {
    this.shown = shown;
    this.i18n = i18n;
    this.startedAt = startedAt;
    this.element.hidden = !showsAnything(shown);
    this.render();
    window.clearInterval(this.ticker);
    if (shown.elapsed) this.ticker = window.setInterval(() => this.tick(), TICK_MS);
  }

  /** When the session started, on the page's clock (the server's figures arrived). */
  setStartedAt(startedAt: number): void {
    this.startedAt = startedAt;
    this.tick();
  }

  /** The session's net position (won − wagered), in minor units. */
  setNet(net: number): void {
    this.net = net;
    this.netValue.textContent = this.i18n.money(net);
    this.netValue.dataset.net = String(net);
  }

  stop(): void {
    window.clearInterval(this.ticker);
  }

  private tick(): void {
    const text = formatElapsed(this.now() - this.startedAt);
    if (this.elapsedValue.textContent !== text) this.elapsedValue.textContent = text;
  }

  private render(): void {
    const { shown, i18n } = this;
    const item = (name: string, children: Array<Node | string>) =>
      el('span', { class: `rules-item ${name}`, 'data-rule': name }, children);
    const label = (text: string) => el('span', { class: 'label' }, [text]);
    this.tick();
    this.setNet(this.net);
    const url = shown.responsibleGamingUrl;
    fill(this.element, [
      shown.elapsed && item('elapsed', [label(i18n.t('elapsed')), ' ', this.elapsedValue]),
      shown.net && item('net', [label(i18n.t('net')), ' ', this.netValue]),
      shown.rtp !== null && item('rtp', [i18n.t('rtp', { rtp: percent(shown.rtp, i18n.lang) })]),
      shown.ageNotice !== null &&
        el(
          'span',
          {
            class: 'rules-item age',
            'data-rule': 'age',
            role: 'img',
            'aria-label': i18n.t('ageNoticeLabel', { age: shown.ageNotice }),
          },
          [i18n.t('ageNotice', { age: shown.ageNotice })],
        ),
      url !== null &&
        el(
          'a',
          {
            class: 'rules-item rg-link',
            'data-rule': 'rg-link',
            href: url,
            target: '_blank',
            rel: 'noopener',
            'aria-label': `${i18n.t('responsibleGaming')} ${i18n.t('newTab')}`,
          },
          [i18n.t('responsibleGaming')],
        ),
    ]);
  }
}
