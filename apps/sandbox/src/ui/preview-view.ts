import { el } from '@raspa/browser-kit';
import { CARD_MODELS, type CardCell, type Ladder, layoutCard, seededRng } from '@raspa/core';
import type { Lang } from '../config/sandbox-config.ts';
import type { CardPreview } from '../preview/card-preview.ts';
import { money } from './format.ts';

/**
 * The card of each level, drawn by the player's page's renderer. Pixi loads on first view; a
 * browser without WebGL gets the card's symbols as text instead.
 */
export class PreviewView {
  readonly root: HTMLElement;
  private readonly levels = el('div', { class: 'levels', role: 'radiogroup', 'aria-label': 'Card of level' });
  private readonly canvasHost = el('div', { class: 'card-canvas' });
  private readonly rule = el('p', { class: 'hint' });
  private readonly fallback = el('p', { class: 'status', hidden: true });
  private preview: Promise<CardPreview | null> | undefined;
  private ladder: Ladder | null = null;
  private lang: Lang = 'pt';
  private level = 1;
  private variant = 0;
  private visible = false;
  private readonly observer: IntersectionObserver;

  constructor() {
    const another = el('button', { type: 'button', 'data-action': 'another-card' }, ['Another card']);
    another.addEventListener('click', () => {
      this.variant += 1;
      void this.draw();
    });
    this.root = el('section', { class: 'preview', 'aria-label': 'Card preview', 'data-state': 'idle' }, [
      el('h3', {}, ['The card of each level']),
      this.rule,
      el('div', { class: 'actions' }, [this.levels, another]),
      this.canvasHost,
      this.fallback,
    ]);
    this.observer = new IntersectionObserver((entries) => {
      this.visible = entries.some((entry) => entry.isIntersecting);
      if (this.visible) void this.draw();
    });
    this.observer.observe(this.root);
  }

  /** Frees the renderer (its WebGL context) when the panel goes away. */
  destroy(): void {
    this.observer.disconnect();
    this.ladder = null;
    void this.preview?.then((preview) => preview?.destroy());
  }

  set(ladder: Ladder | null, lang: Lang): void {
    const same =
      ladder === this.ladder ||
      (ladder !== null && this.ladder !== null && JSON.stringify(ladder) === JSON.stringify(this.ladder));
    if (same && lang === this.lang) return;
    this.ladder = ladder;
    this.lang = lang;
    this.drawLevels();
    if (ladder)
      this.rule.textContent = `${CARD_MODELS[ladder.gameModel].title}: ${CARD_MODELS[ladder.gameModel].ruleText[lang]}`;
    void this.draw();
  }

  private drawLevels(): void {
    const ladder = this.ladder;
    if (!ladder) return;
    const options = [0, ...ladder.levels.map((level) => level.level)];
    this.levels.replaceChildren(
      ...options.map((level) => {
        const prize = ladder.levels[level - 1]?.prize;
        const button = el(
          'button',
          {
            type: 'button',
            role: 'radio',
            'aria-checked': String(level === this.level),
            'data-level': level,
            title: prize === undefined ? 'A losing card' : `Level ${level}: ${money(prize, ladder.currency)}`,
          },
          [level === 0 ? 'Lose' : String(level)],
        );
        button.addEventListener('click', () => {
          this.level = level;
          for (const each of this.levels.querySelectorAll('button')) {
            each.setAttribute('aria-checked', String(each === button));
          }
          void this.draw();
        });
        return button;
      }),
    );
  }

  private async draw(): Promise<void> {
    const ladder = this.ladder;
    if (!ladder || !this.visible) return;
    this.preview ??= import('../preview/card-preview.ts')
      .then(({ CardPreview }) => CardPreview.create(this.canvasHost))
      .catch((error: unknown) => {
        this.fallback.hidden = false;
        this.fallback.textContent = `This browser cannot draw the card (${(error as Error).message}).`;
        return null;
      });
    const preview = await this.preview;
    if (ladder !== this.ladder) return;
    if (!preview) {
      this.canvasHost.replaceChildren(textCard(ladder, this.level, this.lang, this.variant));
      this.root.dataset.state = 'text';
      return;
    }
    preview.show({ ladder, level: this.level, lang: this.lang, variant: this.variant });
    this.root.dataset.state = 'drawn';
    this.root.dataset.model = ladder.gameModel;
    this.root.dataset.level = String(this.level);
  }
}

/** The card as symbols and prizes in a grid, for a browser that cannot run the renderer. */
function textCard(ladder: Ladder, level: number, lang: Lang, variant: number): HTMLElement {
  const info = CARD_MODELS[ladder.gameModel];
  const card = layoutCard(ladder.gameModel, ladder, level, seededRng(variant * 97 + level));
  const symbols = new Map([...info.symbols, ...info.extraSymbols].map((symbol) => [symbol.id, symbol]));
  const spot = (cell: CardCell, winning: boolean) => {
    const symbol = symbols.get(cell.symbol);
    const prize =
      cell.prizeLevel === undefined
        ? ''
        : money(ladder.levels[cell.prizeLevel - 1]?.prize ?? 0, ladder.currency);
    return el('span', { class: winning ? 'spot win' : 'spot', title: symbol?.name[lang] ?? cell.symbol }, [
      `${symbol?.emoji ?? cell.symbol}${cell.number === undefined ? '' : ` ${cell.number}`}`,
      prize ? el('small', {}, [prize]) : null,
    ]);
  };
  return el('div', { class: 'text-card' }, [
    el(
      'div',
      { class: 'text-grid', style: `grid-template-columns: repeat(${card.cols}, 1fr)` },
      card.cells.map((cell, i) => spot(cell, card.winningCells.includes(i))),
    ),
    card.extras.length > 0
      ? el(
          'div',
          { class: 'text-extras' },
          card.extras.map((cell, i) => spot(cell, card.winningExtras.includes(i))),
        )
      : null,
  ]);
}
