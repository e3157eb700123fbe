import { el, localTime } from '@raspa/browser-kit';
import type { HistoryAnswer, PlayRound } from '@raspa/core';
import { StillCard, stillResult } from '../card/still-card.ts';
import type { I18n } from '../i18n/i18n.ts';
import type { DrawContext, ModelArt } from '../models/model-art.ts';
import type { Answer } from '../net/play-client.ts';
import { historyRows } from './history-rows.ts';

export interface HistoryPanelDeps {
  /** The `history` request (net/play-client.ts), its answer checked with the core's schema. */
  load(): Promise<Answer<HistoryAnswer>>;
  /** The session's card art and what it draws with; undefined until the first state. */
  drawing(): { art: ModelArt; context: DrawContext } | undefined;
}

/**
 * The player's last rounds of this game (GLI-19's "last game recall", docs/player-protection.md):
 * a "History" button for the page's bar and a modal `<dialog>` with the list, a real list of
 * buttons. Choosing one draws its card scratched (StillCard, as the replay page does) with a way
 * back to the list and to play. The dialog is modal, so nothing on the card can be touched while
 * it is open, and the page opens it only between cards (setAvailable): the list never touches a
 * round in play. Focus goes into the dialog and comes back to where it was; Escape closes it.
 * The root gets `data-history` ("list", "card", or absent) for tests and support tools.
 */
export class HistoryPanel {
  readonly button: HTMLButtonElement;
  private readonly label = el('span', { class: 'history-label' });
  private readonly dialog = el('dialog', { class: 'history', 'aria-labelledby': 'history-title' });
  private readonly title = el('h2', { id: 'history-title', tabindex: '-1' });
  private readonly note = el('p', { class: 'history-note' });
  private readonly status = el('p', { class: 'history-status', role: 'status' });
  private readonly list = el('ul', { class: 'history-list' });
  private readonly cardView = el('section', { class: 'history-card', hidden: true });
  private readonly cardFacts = el('p', { class: 'history-facts' });
  private readonly cardHost = el('figure', { class: 'history-figure', role: 'img', 'data-history-card': '' });
  private readonly closeButton = el('button', {
    type: 'button',
    class: 'secondary',
    'data-action': 'history-close',
  });
  private readonly listButton = el('button', {
    type: 'button',
    class: 'secondary',
    'data-action': 'history-list',
  });
  private still: StillCard | undefined;
  private rounds: readonly PlayRound[] = [];
  /** The row chosen last, to give it focus back when the player returns to the list. */
  private chosen: string | undefined;
  /** Each opening's number: an answer or a drawing that arrives after the dialog moved on is dropped. */
  private generation = 0;

  constructor(
    private i18n: I18n,
    private readonly deps: HistoryPanelDeps,
    private readonly html: HTMLElement = document.documentElement,
  ) {
    this.button = el('button', { type: 'button', class: 'history-toggle', 'data-action': 'history' }, [
      clockIcon(),
      this.label,
    ]);
    this.button.addEventListener('click', () => void this.open());
    this.closeButton.addEventListener('click', () => this.dialog.close());
    this.listButton.addEventListener('click', () => this.showList());
    // Escape (the dialog's own `cancel`) and "Back to play" both end here.
    this.dialog.addEventListener('close', () => this.closed());
    this.cardView.append(
      el('div', { class: 'history-card-bar' }, [this.listButton]),
      this.cardFacts,
      this.cardHost,
    );
    this.dialog.append(
      el('div', { class: 'history-box' }, [
        el('header', { class: 'history-head' }, [this.title, this.closeButton]),
        this.note,
        this.status,
        this.list,
        this.cardView,
      ]),
    );
    document.body.append(this.dialog);
    this.render();
  }

  setI18n(i18n: I18n): void {
    this.i18n = i18n;
    this.render();
  }

  /** The page allows the list only between cards (not while one is bought, scratched or revealed). */
  setAvailable(available: boolean): void {
    this.button.disabled = !available;
  }

  async open(): Promise<void> {
    if (this.button.disabled || this.dialog.open) return;
    const generation = ++this.generation;
    this.chosen = undefined;
    this.rounds = [];
    this.list.replaceChildren();
    this.cardView.hidden = true;
    this.list.hidden = false;
    this.say(this.i18n.t('historyLoading'));
    this.dialog.showModal();
    this.html.dataset.history = 'list';
    this.title.focus();
    const answer = await this.deps.load();
    if (generation !== this.generation || !this.dialog.open) return;
    if (!answer.ok) {
      this.say(this.i18n.t(answer.code === 'OFFLINE' ? 'offline' : 'historyFailed'), 'error');
      return;
    }
    this.rounds = answer.data.rounds;
    this.renderList();
    this.list.querySelector<HTMLButtonElement>('button:not(:disabled)')?.focus();
  }

  private renderList(): void {
    const rows = historyRows(this.rounds, this.i18n, (iso) => localTime(iso, this.i18n.lang));
    this.say(rows.length === 0 ? this.i18n.t('historyEmpty') : '');
    this.list.replaceChildren(
      ...rows.map((row) => {
        const button = el(
          'button',
          {
            type: 'button',
            class: 'history-row',
            'data-round-id': row.roundId,
            'data-free': String(row.free),
            'data-won': String(row.won),
            disabled: !row.choosable,
          },
          [
            el('span', { class: 'history-time' }, [row.time]),
            el('span', { class: 'history-price' }, [row.price]),
            el('span', { class: 'history-prize' }, [row.prize]),
            el('span', { class: 'history-state' }, [row.status]),
          ],
        );
        button.addEventListener('click', () => void this.choose(row.roundId));
        return el('li', {}, [button]);
      }),
    );
  }

  private async choose(roundId: string): Promise<void> {
    const round = this.rounds.find((each) => each.roundId === roundId);
    const drawing = this.deps.drawing();
    if (!round || !drawing) return;
    const generation = ++this.generation;
    this.chosen = roundId;
    const row = historyRows([round], this.i18n, (iso) => localTime(iso, this.i18n.lang))[0];
    this.list.hidden = true;
    this.cardView.hidden = false;
    this.say('');
    this.cardFacts.textContent = row ? `${row.time} · ${row.price} · ${row.prize} · ${row.status}` : '';
    this.cardHost.setAttribute(
      'aria-label',
      this.i18n.t('historyCard', { time: row?.time ?? '', prize: row?.prize ?? '' }),
    );
    this.html.dataset.history = 'card';
    delete this.html.dataset.historyDrawn;
    this.listButton.focus();
    try {
      // One drawing for the panel's life, reused for each card (a WebGL context each time would pile up).
      this.still ??= await StillCard.create(this.cardHost);
    } catch {
      this.say(this.i18n.t('unsupported'), 'error');
      return;
    }
    if (generation !== this.generation) return;
    this.still.show(drawing.art, drawing.context, round.card, stillResult(this.i18n, round.prize));
    this.html.dataset.historyDrawn = roundId;
  }

  private showList(): void {
    this.generation++;
    this.cardView.hidden = true;
    this.list.hidden = false;
    this.html.dataset.history = 'list';
    const chosen =
      this.chosen &&
      this.list.querySelector<HTMLButtonElement>(`[data-round-id="${CSS.escape(this.chosen)}"]`);
    (chosen || this.title).focus();
  }

  private closed(): void {
    this.generation++;
    delete this.html.dataset.history;
    delete this.html.dataset.historyDrawn;
    // The dialog gives focus back by itself in most browsers; said here so every one does.
    this.button.focus();
  }

  private say(text: string, tone: 'info' | 'error' = 'info'): void {
    this.status.textContent = text;
    this.status.dataset.tone = tone;
    this.status.hidden = text === '';
  }

  private render(): void {
    const { i18n } = this;
    this.label.textContent = i18n.t('history');
    this.title.textContent = i18n.t('historyTitle');
    this.note.textContent = i18n.t('historyNote');
    this.closeButton.textContent = i18n.t('historyBack');
    this.listButton.textContent = i18n.t('historyList');
    if (this.rounds.length && !this.list.hidden) this.renderList();
  }
}

/** A clock face (drawn here: no icon font), beside the word, which a phone's narrow bar hides visually. */
function clockIcon(): SVGSVGElement {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', '20');
  svg.setAttribute('height', '20');
  svg.setAttribute('aria-hidden', 'true');
  const path = document.createElementNS(ns, 'path');
  path.setAttribute('d', 'M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18M12 7v5l3 3');
  path.setAttribute('fill', 'none');
  path.setAttribute('stroke', 'currentColor');
  path.setAttribute('stroke-width', '2');
  path.setAttribute('stroke-linecap', 'round');
  svg.append(path);
  return svg;
}
