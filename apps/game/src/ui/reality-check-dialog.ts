import { el, uid } from '@raspa/browser-kit';
import type { RealityCheck } from '@raspa/core';
import type { I18n } from '../i18n/i18n.ts';

export interface RealityCheckChoice {
  /** "Keep playing": resolves once the page may buy again (false: it could not, the dialog stays). */
  keepPlaying(): Promise<boolean>;
  /** "Leave" with no page to go back to (a returnUrl goes by its link). */
  leave(): void;
}

/**
 * The reality check (CONTRACT §13): a required pause showing the session's time played, wagered,
 * won and net, with "Keep playing" and "Leave". A modal dialog: focus moves into it (its box, so a
 * screen reader reads the title and the figures first, and an Enter held from the buy button does
 * not answer it), Tab stays inside, and Escape does not dismiss it: it says to choose instead.
 */
export class RealityCheckDialog {
  readonly element = el('div', { class: 'reality-layer', hidden: true });
  private returnFocus: Element | null = null;
  private note: HTMLElement | undefined;
  private i18n: I18n | undefined;

  constructor(private readonly choice: RealityCheckChoice) {
    this.element.addEventListener('keydown', (event) => this.onKey(event));
  }

  get open(): boolean {
    return !this.element.hidden;
  }

  show(figures: RealityCheck, i18n: I18n, returnUrl: string | null): void {
    const titleId = uid('reality-title');
    const figuresId = uid('reality-figures');
    const note = el('p', { class: 'reality-note', role: 'status', 'data-reality-note': '' });
    const figure = (name: string, label: string, value: string) =>
      el('div', { class: 'reality-figure', 'data-figure': name }, [
        el('dt', {}, [label]),
        el('dd', {}, [value]),
      ]);
    const keep = el('button', { type: 'button', class: 'primary', 'data-action': 'keep-playing' }, [
      i18n.t('keepPlaying'),
    ]);
    keep.addEventListener('click', () => void this.keep(keep, note));
    const leave =
      returnUrl && /^https?:\/\//.test(returnUrl)
        ? el(
            'a',
            { class: 'secondary', href: returnUrl, target: '_top', rel: 'noopener', 'data-action': 'leave' },
            [i18n.t('leave')],
          )
        : el('button', { type: 'button', class: 'secondary', 'data-action': 'leave' }, [i18n.t('leave')]);
    if (leave instanceof HTMLButtonElement) leave.addEventListener('click', () => this.leave());
    const box = el(
      'div',
      {
        class: 'reality-box',
        role: 'dialog',
        'aria-modal': 'true',
        'aria-labelledby': titleId,
        'aria-describedby': figuresId,
        tabindex: '-1',
        'data-reality-check': '',
      },
      [
        el('h2', { id: titleId }, [i18n.t('realityTitle')]),
        el('div', { id: figuresId }, [
          el('p', {}, [i18n.t('realityIntro')]),
          el('dl', { class: 'reality-figures' }, [
            figure(
              'elapsed',
              i18n.t('realityElapsed'),
              i18n.t('minutes', { n: i18n.count(figures.elapsedMinutes) }),
            ),
            figure('wagered', i18n.t('realityWagered'), i18n.money(figures.wagered)),
            figure('won', i18n.t('realityWon'), i18n.money(figures.won)),
            figure('net', i18n.t('realityNet'), i18n.money(figures.net)),
          ]),
        ]),
        note,
        el('div', { class: 'reality-actions' }, [keep, leave]),
      ],
    );
    this.returnFocus = document.activeElement;
    this.element.replaceChildren(box);
    this.element.hidden = false;
    this.note = note;
    this.i18n = i18n;
    box.focus();
  }

  close(): void {
    this.element.hidden = true;
    this.element.replaceChildren();
    const back = this.returnFocus;
    this.returnFocus = null;
    if (back instanceof HTMLElement && back.isConnected) back.focus();
  }

  private async keep(button: HTMLButtonElement, note: HTMLElement): Promise<void> {
    if (button.disabled) return;
    button.disabled = true;
    const resumed = await this.choice.keepPlaying();
    if (!this.open) return;
    button.disabled = false;
    if (resumed) this.close();
    else note.textContent = this.i18n?.t('offline') ?? '';
  }

  private leave(): void {
    this.close();
    this.choice.leave();
  }

  private onKey(event: KeyboardEvent): void {
    if (!this.open) return;
    if (event.key === 'Escape') {
      // A required pause: Escape does not close it, it says what to do.
      event.preventDefault();
      event.stopPropagation();
      if (this.note && this.i18n) this.note.textContent = this.i18n.t('realityChoose');
      return;
    }
    if (event.key !== 'Tab') return;
    const focusable = [...this.element.querySelectorAll<HTMLElement>('button:not([disabled]), a[href]')];
    const first = focusable[0];
    const last = focusable.at(-1);
    if (!first || !last) return;
    const active = document.activeElement;
    const outside = !active || !focusable.includes(active as HTMLElement);
    if (event.shiftKey && (active === first || outside)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || outside)) {
      event.preventDefault();
      first.focus();
    }
  }
}
