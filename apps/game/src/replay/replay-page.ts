import { asLang, el, type Lang, utcTime } from '@raspa/browser-kit';
import { createI18n } from '../i18n/i18n.ts';
import { type ReplayRound, replayRoundSchema } from './replay-round.ts';
import { REPLAY_STRINGS } from './replay-strings.ts';
import { drawRoundCard, minorOf } from './round-card.ts';

/**
 * The replay page (served at /replay/{token}, docs/contract.md §11): reads the round behind its
 * token from /v1/replay/{token} and draws it read-only, or says the link has expired. The server
 * marks the page `data-replay="expired"` when it already knows; the root gets `data-drawn="true"`
 * once the card is on screen (for tests and support tools), `data-replay="expired"` when the link
 * turned out dead.
 */

/** The token of /replay/{token}; the address bar then shows /replay/ only. */
export function takeToken(win: Window): string {
  const last = win.location.pathname.split('/').filter(Boolean).at(-1) ?? '';
  const token = last === 'replay' || last === 'replay.html' ? '' : decodeURIComponent(last);
  win.history.replaceState(null, '', '/replay/');
  return token;
}

export class ReplayPage {
  private readonly lang: Lang;
  private readonly t: (typeof REPLAY_STRINGS)[Lang];

  constructor(
    private readonly root: HTMLElement,
    private readonly html: HTMLElement,
  ) {
    this.lang = asLang(html.lang);
    this.t = REPLAY_STRINGS[this.lang];
    document.title = `Raspa · ${this.t.title}`;
  }

  async show(token: string, fetcher: typeof fetch = fetch): Promise<void> {
    if (this.html.dataset.replay === 'expired' || token === '') return this.expired();
    this.say(this.t.loading);
    let answer: Response;
    try {
      answer = await fetcher(`/v1/replay/${encodeURIComponent(token)}`, {
        headers: { accept: 'application/json' },
        referrerPolicy: 'no-referrer',
        cache: 'no-store',
      });
    } catch {
      return this.say(this.t.failed);
    }
    if (answer.status === 404 || answer.status === 410) return this.expired();
    const parsed = answer.ok ? replayRoundSchema.safeParse((await answer.json()).data) : undefined;
    if (!parsed?.success) return this.say(this.t.failed);
    await this.round(parsed.data);
  }

  private async round(round: ReplayRound): Promise<void> {
    const { t } = this;
    const i18n = createI18n(this.lang, round.currency);
    const money = (major: number) => i18n.money(minorOf(major, round.currency));
    const when = (iso: string | null) => (iso === null ? t.notEnded : utcTime(iso, this.lang, 'medium'));
    this.root.replaceChildren();
    this.root.append(el('h1', {}, [t.title]), el('p', { class: 'replay-note' }, [t.readOnly]));
    const facts = el('dl', { class: 'replay-facts' });
    const fact = (term: string, value: string, name: string) => {
      const dd = el('dd', {}, [value]);
      dd.dataset.fact = name;
      facts.append(el('dt', {}, [term]), dd);
    };
    fact(t.round, round._id, 'round');
    const status = `status_${round.status}`;
    fact(t.status, status in t ? t[status as keyof typeof t] : round.status, 'status');
    fact(t.price, money(round.paidPrice), 'price');
    fact(t.prize, money(round.prize), 'prize');
    fact(t.bought, when(round.createdAt), 'bought');
    fact(t.ended, when(round.endAt), 'ended');
    this.root.append(facts);
    if (!round.card) {
      this.root.append(el('p', { class: 'replay-status' }, [t.noCard]));
      this.html.dataset.drawn = 'no-card';
      return;
    }
    const host = el('figure', { class: 'replay-card' });
    host.setAttribute('role', 'img');
    host.setAttribute('aria-label', t.cardLabel.replace('{result}', money(round.prize)));
    this.root.append(host);
    await drawRoundCard(host, round, this.lang);
    this.html.dataset.drawn = 'true';
  }

  private expired(): void {
    this.html.dataset.replay = 'expired';
    this.root.replaceChildren(
      el('h1', {}, [this.t.expiredTitle]),
      el('p', { class: 'replay-status' }, [this.t.expired]),
    );
  }

  private say(text: string): void {
    this.root.replaceChildren(el('p', { class: 'replay-status' }, [text]));
    this.root.firstElementChild?.setAttribute('role', 'status');
  }
}
