import type { Lang } from './language.ts';
import { localeOf } from './locale.ts';

/**
 * An ISO time shown in UTC, and saying so ("11/26/26, 3:22:26 AM UTC"): the lists' date filters
 * and the service's logs are in UTC days. "—" for none; text that is not a time comes back as is.
 */
export function utcTime(iso: string | null, lang: Lang, dateStyle: 'short' | 'medium' = 'short'): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const text = new Intl.DateTimeFormat(localeOf(lang), { dateStyle, timeStyle: 'medium', timeZone: 'UTC' });
  return `${text.format(date)} UTC`;
}

/**
 * An ISO time as a player reads it: short date and time in their language and, unless a test names
 * one, their device's time zone (the game's history list, a free card's expiry). Text that is not a
 * time comes back as is.
 */
export function localTime(iso: string, lang: Lang, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(localeOf(lang), {
    dateStyle: 'short',
    timeStyle: 'short',
    ...(timeZone && { timeZone }),
  }).format(date);
}
