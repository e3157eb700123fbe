import type { Lang } from '../api/wire-types.ts';

const LOCALES: Record<Lang, string> = { pt: 'pt-BR', en: 'en-GB', es: 'es-ES' };

/** An amount in major units, as the API sends it, with its currency. */
export function money(amount: number | null, currency: string, lang: Lang): string {
  if (amount === null) return '—';
  try {
    return new Intl.NumberFormat(LOCALES[lang], { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount} ${currency}`;
  }
}

export const count = (value: number, lang: Lang) => new Intl.NumberFormat(LOCALES[lang]).format(value);

export const percent = (ratio: number, lang: Lang, digits = 2) =>
  new Intl.NumberFormat(LOCALES[lang], { style: 'percent', maximumFractionDigits: digits }).format(ratio);

/** A number with at most `digits` decimals (odds, multiples). */
export const decimal = (value: number, lang: Lang, digits = 1) =>
  new Intl.NumberFormat(LOCALES[lang], { maximumFractionDigits: digits }).format(value);

/** An ISO time from the API, shown in UTC (the lists' date filters are UTC days). */
export function time(iso: string | null, lang: Lang): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${new Intl.DateTimeFormat(LOCALES[lang], { dateStyle: 'short', timeStyle: 'medium', timeZone: 'UTC' }).format(date)} UTC`;
}

/** The first characters of an opaque id, the whole one in the title (tooltip) and for screen readers. */
export function shortId(id: string): HTMLElement {
  const element = document.createElement('code');
  element.textContent = id.length > 12 ? `${id.slice(0, 8)}…` : id;
  element.title = id;
  element.setAttribute('aria-label', id);
  return element;
}
