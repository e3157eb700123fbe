import type { PlayRound, PlayStateRules, SessionEndCode, SessionFigures } from '@raspa/core';
import type { I18n } from '../i18n/i18n.ts';
import type { StringKey } from '../i18n/strings.ts';
import type { Answer, PlayClient } from '../net/play-client.ts';
import { secondsLeft } from '../rules/buy-pace.ts';
import { NOTHING_SHOWN, type RulesShown, rulesShown } from '../rules/rules-shown.ts';
import {
  fromServer,
  netOf,
  openPosition,
  type SessionPosition,
  withBet,
  withPrize,
} from '../rules/session-position.ts';
import type { Overlay, Tone } from '../ui/overlay.ts';
import { RealityCheckDialog } from '../ui/reality-check-dialog.ts';
import { SessionRulesBar } from '../ui/session-rules-bar.ts';
import { BuyPacer } from './buy-pacer.ts';

/** What player protection needs of the page around it. */
export interface ProtectionHost {
  readonly client: PlayClient | undefined;
  readonly i18n: I18n;
  readonly returnUrl: string | null;
  say(text: string, tone?: Tone): void;
  /** The session is over for good: the page blocks with this title and text. */
  end(title: string, text: string): void;
}

type Refusal = Extract<Answer<unknown>, { ok: false }>;

/**
 * Player protection on the player's page (docs/player-protection.md, CONTRACT §13): the
 * jurisdiction's rules on screen (the rules bar), the least time between buys (the buy button
 * counting down), the reality check's dialog, and the words for the buy's refusals and a session's
 * end. The page calls it at its few points (state loaded, buy sent and answered, round news).
 */
export class PlayerProtection {
  private shown: RulesShown = NOTHING_SHOWN;
  private position: SessionPosition;
  private readonly bar: SessionRulesBar;
  private readonly dialog: RealityCheckDialog;
  private readonly pacer: BuyPacer;

  constructor(
    private readonly overlay: Overlay,
    private readonly host: ProtectionHost,
    private readonly now: () => number = Date.now,
  ) {
    this.position = openPosition(now());
    this.bar = new SessionRulesBar(host.i18n, now);
    this.dialog = new RealityCheckDialog({
      keepPlaying: () => this.keepPlaying(),
      leave: () => this.host.end(this.host.i18n.t('leftTitle'), this.host.i18n.t('leftText')),
    });
    this.pacer = new BuyPacer((seconds) => overlay.setBuyWait(seconds), now);
    overlay.addToFooter(this.bar.element);
    overlay.addLayer(this.dialog.element);
  }

  /** The state's rules (null: an older server, nothing to show). */
  apply(rules: PlayStateRules | null | undefined): void {
    this.shown = rulesShown(rules);
    this.pacer.setGap(this.shown.minMsBetweenBuys);
    this.overlay.setRevealAllOffered(this.shown.revealAll);
    this.bar.show(this.shown, this.host.i18n, this.position.startedAt);
    this.bar.setNet(netOf(this.position));
    document.documentElement.dataset.revealAll = String(this.shown.revealAll);
  }

  /**
   * The state's session figures (at load, reconnect and resync): the server's count of the whole
   * session replaces the page's, so a reload or another tab's cards change nothing of what is shown.
   * Null: the rules show neither (or an older server); the page keeps its own count.
   */
  sessionFigures(figures: SessionFigures | null | undefined, openRound: PlayRound | null): void {
    if (!figures) return;
    this.position = fromServer(figures, openRound, this.now());
    this.bar.setStartedAt(this.position.startedAt);
    this.bar.setNet(netOf(this.position));
  }

  get revealAll(): boolean {
    return this.shown.revealAll;
  }

  /** The hint while a card is in play: it names "Reveal all" only where it is offered. */
  get scratchHint(): StringKey {
    return this.shown.revealAll ? 'scratchHint' : 'scratchOnlyHint';
  }

  /** Before a buy is sent: false while the time between buys runs (the button says how long). */
  mayBuy(): boolean {
    const left = this.pacer.remaining();
    if (left <= 0 && !this.dialog.open) return true;
    if (left > 0) this.host.say(this.host.i18n.t('buyWaitHint', { s: secondsLeft(left) }));
    return false;
  }

  /** A card bought in this page. */
  bought(round: PlayRound): void {
    this.pacer.bought(round.createdAt);
    this.position = withBet(this.position, round);
    this.bar.setNet(netOf(this.position));
  }

  /** A round's news (its reveal answer, a push): a prize paid counts in the net position. */
  roundNews(round: PlayRound): void {
    this.position = withPrize(this.position, round);
    this.bar.setNet(netOf(this.position));
  }

  /** A refused buy: true when it is protection's to answer (and it was answered). */
  refused(answer: Refusal): boolean {
    const { i18n } = this.host;
    const text = answer.message ?? i18n.error(answer.code);
    switch (answer.code) {
      case 'REALITY_CHECK':
        this.host.say(text);
        if (answer.realityCheck) this.dialog.show(answer.realityCheck, i18n, this.host.returnUrl);
        return true;
      case 'BUY_TOO_SOON': {
        const wait = this.pacer.refused(answer.retryAt);
        this.host.say(i18n.t('buyWaitHint', { s: secondsLeft(wait) }));
        return true;
      }
      case 'LIMIT_REACHED':
      case 'SESSION_TIME_LIMIT':
        // The server's sentence names the limit, its amount and when it resets: shown as it is.
        document.documentElement.dataset.error = answer.code;
        this.host.say(text, 'error');
        return true;
      default:
        return this.endsSession(answer.code);
    }
  }

  /** A request refused because the session was ended: said as such (true), or not such a refusal. */
  endsSession(code: string): boolean {
    if (code !== 'SESSION_ENDED' && code !== 'PLAYER_EXCLUDED') return false;
    this.ended(code);
    return true;
  }

  /** The session was ended (the `session-ended` push, a refused connection or request). */
  ended(code: SessionEndCode): void {
    const { i18n } = this.host;
    document.documentElement.dataset.session = code === 'PLAYER_EXCLUDED' ? 'excluded' : 'ended';
    // The host's end calls stop() (GameApp.end): the pacer, the bar and the dialog stop once.
    this.host.end(
      i18n.t('sessionEndedTitle'),
      code === 'PLAYER_EXCLUDED' ? i18n.t('sessionExcluded') : i18n.error('SESSION_ENDED'),
    );
  }

  stop(): void {
    this.pacer.stop();
    this.bar.stop();
    if (this.dialog.open) this.dialog.close();
  }

  private async keepPlaying(): Promise<boolean> {
    const answer = await this.host.client?.realityCheckAck();
    if (!answer?.ok) return false;
    this.host.say('');
    return true;
  }
}
