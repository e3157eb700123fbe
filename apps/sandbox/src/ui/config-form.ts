import { el, uid } from '@raspa/browser-kit';
import {
  CARD_MODELS,
  CURRENCIES,
  findCurrency,
  GAME_MODELS,
  LADDER_LIMITS,
  LADDER_SHAPES,
  type LadderProblem,
  PLAYER_RESULTS_LIMITS,
} from '@raspa/core';
import { type ConfigField, LANGS, type SandboxConfig } from '../config/sandbox-config.ts';
import { count } from './format.ts';

/** Where each of buildLadder's problem fields shows its message. */
const PROBLEM_FIELD: Record<LadderProblem['field'], ConfigField | 'ladder'> = {
  gameModel: 'model',
  currency: 'currency',
  rtp: 'rtp',
  sampling: 'sampling',
  prizedPercent: 'prizedPercent',
  betPrice: 'betPrice',
  ladder: 'ladder',
};

const LANG_NAMES: Record<(typeof LANGS)[number], string> = { pt: 'Português', en: 'English', es: 'Español' };

interface Field {
  input: HTMLInputElement | HTMLSelectElement;
  hint: HTMLElement;
  message: HTMLElement;
  wrapper: HTMLElement;
}

/**
 * The inputs of one configuration, each with its bounds explained under it and the core's message
 * when the value breaks a rule. Text inputs, so the page keeps exactly what was typed.
 */
export class ConfigForm {
  readonly root: HTMLFormElement;
  /** N cards in a row and the seed: shown with the player results, outside the form. */
  readonly playerInputs: HTMLElement;
  private readonly fields = new Map<ConfigField, Field>();
  private readonly ladderMessage = el('p', { class: 'problem ladder-problem', role: 'alert', hidden: true });

  constructor(
    private config: SandboxConfig,
    private readonly onChange: (field: ConfigField, value: string) => void,
  ) {
    this.root = el('form', { class: 'config-form', novalidate: true, autocomplete: 'off' });
    this.root.addEventListener('submit', (event) => event.preventDefault());
    const model = this.select(
      'model',
      'Game model',
      GAME_MODELS.map((m) => [m, `${m} · ${CARD_MODELS[m].title}`]),
    );
    const currency = this.select(
      'currency',
      'Currency',
      CURRENCIES.map((c) => [c.code, `${c.code} · ${c.name}`]),
    );
    const { rtp, sampling, prizedPercent, betPrice } = LADDER_LIMITS;
    this.root.append(
      model,
      el('div', { class: 'field-row' }, [
        currency,
        this.select(
          'lang',
          'Language',
          LANGS.map((lang) => [lang, LANG_NAMES[lang]]),
        ),
      ]),
      this.text(
        'rtp',
        'RTP',
        `Return to player, ${rtp.min.toFixed(2)}–${rtp.max.toFixed(2)}, up to 6 decimals: 0.9 pays back 90% of every pool's stakes.`,
      ),
      this.text(
        'sampling',
        'Pool size (sampling)',
        `Tickets in one pool, ${count(sampling.min)}–${count(sampling.max)}. Each pool holds exactly the ladder's winners.`,
      ),
      this.text(
        'prizedPercent',
        'Prized share (prizedPercent)',
        `Share of the tickets that win, ${prizedPercent.min.toFixed(2)}–${prizedPercent.max.toFixed(2)}, up to 6 decimals.`,
      ),
      this.text('betPrice', 'Ticket price (betPrice)', `at most ${count(betPrice.maxMajor)}`),
      this.ladderMessage,
    );
    const { cards } = PLAYER_RESULTS_LIMITS;
    this.playerInputs = el('div', { class: 'field-row player-inputs' }, [
      this.text(
        'cards',
        'Cards in a row',
        `${cards.min}–${count(cards.max)} cards bought one after another.`,
      ),
      this.text('seed', 'Seed', 'Same seed, same players (the CLI’s --seed).'),
    ]);
    this.describe();
  }

  /** The problem with N cards or the seed, or none. */
  showPlayerProblem(problem: { field: 'cards' | 'seed'; message: string } | null): void {
    for (const field of ['cards', 'seed'] as const) {
      const entry = this.fields.get(field);
      if (!entry) continue;
      const text = problem?.field === field ? problem.message : '';
      entry.message.textContent = text;
      entry.message.hidden = text === '';
      entry.wrapper.classList.toggle('invalid', text !== '');
      entry.input.setAttribute('aria-invalid', String(text !== ''));
    }
  }

  /** Shows the configuration's values (after an import or a URL change). */
  set(config: SandboxConfig): void {
    this.config = config;
    for (const [field, { input }] of this.fields) {
      if (input.value !== config[field]) input.value = config[field];
    }
    this.describe();
  }

  /** The core's problems, each under its field; a problem of the whole combination under the form. */
  showProblems(problems: readonly LadderProblem[]): void {
    const byField = new Map<string, string[]>();
    for (const problem of problems) {
      const field = PROBLEM_FIELD[problem.field];
      byField.set(field, [...(byField.get(field) ?? []), problem.message]);
    }
    for (const [field, { input, message, wrapper }] of this.fields) {
      if (field === 'cards' || field === 'seed') continue;
      const text = byField.get(field)?.join(' ') ?? '';
      message.textContent = text;
      message.hidden = text === '';
      wrapper.classList.toggle('invalid', text !== '');
      input.setAttribute('aria-invalid', String(text !== ''));
    }
    const whole = byField.get('ladder')?.join(' ') ?? '';
    this.ladderMessage.textContent = whole;
    this.ladderMessage.hidden = whole === '';
  }

  /** Marks the inputs whose value differs from the other configuration's (when comparing). */
  markDifferences(other: SandboxConfig | null): void {
    for (const [field, { wrapper }] of this.fields) {
      wrapper.classList.toggle('differs', other !== null && other[field] !== this.config[field]);
    }
  }

  /** Hints that depend on the values: the model's shape, the currency's decimals. */
  private describe(): void {
    const model = this.fields.get('model');
    if (model) model.hint.textContent = `${LADDER_SHAPES[this.config.model].style}.`;
    const bet = this.fields.get('betPrice');
    const currency = findCurrency(this.config.currency);
    if (bet && currency) {
      const decimals = currency.exponent === 0 ? 'no decimals' : `up to ${currency.exponent} decimals`;
      bet.hint.textContent = `In ${currency.code}, ${decimals}, at most ${count(LADDER_LIMITS.betPrice.maxMajor)}.`;
    }
    const lang = this.fields.get('lang');
    if (lang) lang.hint.textContent = 'Of the game (the body’s lang) and of the card preview.';
  }

  private text(field: ConfigField, label: string, hint: string): HTMLElement {
    const input = el('input', {
      type: 'text',
      inputmode: 'decimal',
      spellcheck: 'false',
      name: field,
      value: this.config[field],
      'data-field': field,
    });
    input.value = this.config[field];
    return this.wrap(field, label, hint, input);
  }

  private select(
    field: ConfigField,
    label: string,
    options: ReadonlyArray<readonly [string, string]>,
  ): HTMLElement {
    const input = el(
      'select',
      { name: field, 'data-field': field },
      options.map(([value, text]) => el('option', { value }, [text])),
    );
    input.value = this.config[field];
    return this.wrap(field, label, '', input);
  }

  private wrap(
    field: ConfigField,
    label: string,
    hintText: string,
    input: HTMLInputElement | HTMLSelectElement,
  ) {
    const id = uid(field);
    input.id = id;
    const hint = el('p', { class: 'hint', id: `${id}-hint` }, [hintText]);
    const message = el('p', { class: 'problem', id: `${id}-problem`, 'data-problem': field, hidden: true });
    input.setAttribute('aria-describedby', `${hint.id} ${message.id}`);
    input.addEventListener('input', () => {
      this.config = { ...this.config, [field]: input.value };
      this.describe();
      this.onChange(field, input.value);
    });
    const wrapper = el('div', { class: 'field', 'data-for': field }, [
      el('label', { for: id }, [label]),
      input,
      hint,
      message,
    ]);
    this.fields.set(field, { input, hint, message, wrapper });
    return wrapper;
  }
}
