import type { Lang } from './language.ts';
import { localeOf } from './locale.ts';

const formats = new Map<string, Intl.NumberFormat>();

/** One Intl.NumberFormat per locale and options: building one costs far more than using it. */
export function numberFormat(lang: Lang, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  const key = `${lang} ${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(localeOf(lang), options);
    formats.set(key, format);
  }
  return format;
}

/** A whole number with the language's grouping: 100001 → "100,001" (en), "100.001" (es, pt). */
export const count = (value: number, lang: Lang): string =>
  numberFormat(lang, { maximumFractionDigits: 0 }).format(value);

/** A number with at most `digits` decimals (odds, multiples). */
export const decimal = (value: number, lang: Lang, digits = 1): string =>
  numberFormat(lang, { maximumFractionDigits: digits }).format(value);

/** A ratio as a percentage with at most `digits` decimals: 0.9512 → "95.12%". */
export const percent = (ratio: number, lang: Lang, digits = 2): string =>
  numberFormat(lang, { style: 'percent', maximumFractionDigits: digits }).format(ratio);
