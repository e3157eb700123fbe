// The browser kit: what the player's page, the panel and the sandbox share. CSS comes apart:
// `@raspa/browser-kit/reset.css` and `@raspa/browser-kit/tokens.css`.

export { localTime, utcTime } from './date-format.ts';
export { type Child, el, fill, type Props, svg, uid } from './dom.ts';
export { saveFile } from './download.ts';
export { asLang, knownLang, LANGS, type Lang, preferredLang } from './language.ts';
export { LOCALES, localeOf } from './locale.ts';
export { money, moneyOfMajor } from './money-format.ts';
export { count, decimal, numberFormat, percent } from './number-format.ts';
