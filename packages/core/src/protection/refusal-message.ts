import { formatMoney } from '../money/money.ts';
import { PLAY_ERRORS, PLAY_LOCALES, type PlayLang } from '../protocol/play-errors.ts';
import type { BuyRefusal } from './buy-decision.ts';
import type { LimitPeriod } from './limit-periods.ts';
import type { LimitType } from './money-limits.ts';

/**
 * The sentence a refused buy answers with: the play error's sentence, and for LIMIT_REACHED, which limit
 * and when it resets (CONTRACT §13), dated in the profile's time zone so it matches the player's day.
 */

const LIMIT_NAMES: Record<PlayLang, Record<`${LimitPeriod}:${LimitType}`, string>> = {
  en: {
    'day:loss': 'daily loss limit',
    'week:loss': 'weekly loss limit',
    'month:loss': 'monthly loss limit',
    'day:wager': 'daily wager limit',
    'week:wager': 'weekly wager limit',
    'month:wager': 'monthly wager limit',
  },
  pt: {
    'day:loss': 'limite diário de perda',
    'week:loss': 'limite semanal de perda',
    'month:loss': 'limite mensal de perda',
    'day:wager': 'limite diário de apostas',
    'week:wager': 'limite semanal de apostas',
    'month:wager': 'limite mensal de apostas',
  },
  es: {
    'day:loss': 'límite diario de pérdida',
    'week:loss': 'límite semanal de pérdida',
    'month:loss': 'límite mensual de pérdida',
    'day:wager': 'límite diario de apuestas',
    'week:wager': 'límite semanal de apuestas',
    'month:wager': 'límite mensual de apuestas',
  },
};

const LIMIT_SENTENCES: Record<PlayLang, (limit: string, amount: string, resetAt: string) => string> = {
  en: (limit, amount, resetAt) =>
    `This card would take you past your ${limit} of ${amount}. It resets on ${resetAt}. Nothing was charged.`,
  pt: (limit, amount, resetAt) =>
    `Esta raspadinha passaria do seu ${limit} de ${amount}. Ele renova em ${resetAt}. Nada foi cobrado.`,
  es: (limit, amount, resetAt) =>
    `Esta tarjeta superaría tu ${limit} de ${amount}. Se renueva el ${resetAt}. No se cobró nada.`,
};

export function buyRefusalMessage(refusal: BuyRefusal, lang: PlayLang, timeZone: string): string {
  if (refusal.code !== 'LIMIT_REACHED') return PLAY_ERRORS[refusal.code][lang];
  const { limit } = refusal;
  const locale = PLAY_LOCALES[lang];
  const resetAt = new Intl.DateTimeFormat(locale, {
    timeZone,
    dateStyle: 'short',
    timeStyle: 'short',
  }).format(new Date(limit.resetAt));
  const amount = formatMoney(limit.amount, limit.currency, locale);
  return LIMIT_SENTENCES[lang](LIMIT_NAMES[lang][`${limit.period}:${limit.type}`], amount, resetAt);
}
