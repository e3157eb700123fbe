import type { Lang } from '../api/wire-types.ts';
import { type Catalogue, en } from './en.ts';
import { es } from './es.ts';
import { pt } from './pt.ts';

export const LANGS: readonly Lang[] = ['pt', 'en', 'es'];
export const CATALOGUES: Record<Lang, Catalogue> = { pt, en, es };

/** The first of the browser's languages the panel speaks, else English. */
export function preferredLang(stored: string | null, browser: readonly string[]): Lang {
  const known = (tag: string | null) => LANGS.find((lang) => lang === tag?.slice(0, 2).toLowerCase());
  return known(stored) ?? browser.map(known).find(Boolean) ?? 'en';
}
