import { count, type Lang, money } from '@raspa/browser-kit';
import { type LocalizedText, PLAY_ERRORS, type PlayErrorCode } from '@raspa/core';
import { STRINGS, type StringKey } from './strings.ts';

export interface I18n {
  readonly lang: Lang;
  /** A sentence of the page, with `{name}` values filled in. */
  t(key: StringKey, values?: Record<string, string | number>): string;
  /** A symbol's or rule's text in this language. */
  pick(text: LocalizedText): string;
  /** Integer minor units as money for people ("R$ 12,50"). */
  money(minor: number): string;
  /** A whole number with this locale's grouping ("1.000.001"). */
  count(value: number): string;
  /** The sentence for a server error code (shared with the server, core PLAY_ERRORS). */
  error(code: string): string;
}

export function createI18n(lang: Lang, currency = 'BRL'): I18n {
  const strings = STRINGS[lang];
  return {
    lang,
    t(key, values) {
      const text = strings[key];
      if (!values) return text;
      return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
        name in values ? String(values[name]) : whole,
      );
    },
    pick: (text) => text[lang],
    money: (minor) => money(minor, currency, lang),
    count: (value) => count(value, lang),
    error(code) {
      if (code in PLAY_ERRORS) return PLAY_ERRORS[code as PlayErrorCode][lang];
      return strings.offline;
    },
  };
}
