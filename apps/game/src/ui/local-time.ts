import { type Lang, localeOf } from '@raspa/browser-kit';

/**
 * An ISO time as the player reads it: short date and time in their language and, unless a test
 * names one, their device's time zone (the history list's times, a free card's expiry). Text that
 * is not a time comes back as is.
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
