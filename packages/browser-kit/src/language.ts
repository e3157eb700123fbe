import type { PlayLang } from '@raspa/core';

/** The languages every page speaks; the first is not a default (English is, see asLang). */
export type Lang = PlayLang;
export const LANGS: readonly Lang[] = ['pt', 'en', 'es'];

/** The language a tag names ("pt-BR" → pt), if a page speaks it. Only the first two letters count. */
export function knownLang(tag: string | null | undefined): Lang | undefined {
  const short = (tag ?? '').slice(0, 2).toLowerCase();
  return LANGS.find((lang) => lang === short);
}

/** The language of one tag (a session's, a page's `lang`, the browser's), English otherwise. */
export function asLang(tag: string | null | undefined): Lang {
  return knownLang(tag) ?? 'en';
}

/** A stored choice if it is known, else the first of the browser's languages a page speaks, else English. */
export function preferredLang(stored: string | null, browser: readonly string[]): Lang {
  return knownLang(stored) ?? browser.map(knownLang).find((lang) => lang !== undefined) ?? 'en';
}
