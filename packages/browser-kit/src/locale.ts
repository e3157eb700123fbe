import type { Lang } from './language.ts';

/**
 * The locale that formats numbers, money and dates in each language. English is en-US on every
 * page: the player's page and the sandbox already spoke it, and the panel (en-GB before) now
 * agrees, so support reads an amount or a date as the player saw it. Brazil for Portuguese.
 */
export const LOCALES: { readonly [L in Lang]: string } = { pt: 'pt-BR', en: 'en-US', es: 'es-ES' };

export const localeOf = (lang: Lang): string => LOCALES[lang];
