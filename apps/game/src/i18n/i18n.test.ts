import { PLAY_ERROR_CODES } from '@raspa/core';
import { describe, expect, it } from 'vitest';
import { createI18n } from './i18n.ts';
import { STRINGS } from './strings.ts';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

describe('the page strings', () => {
  it('exist in pt, en and es for every key, with the same placeholders', () => {
    const keys = Object.keys(STRINGS.en) as Array<keyof typeof STRINGS.en>;
    for (const lang of ['pt', 'es'] as const) {
      expect(Object.keys(STRINGS[lang]).sort()).toEqual([...keys].sort());
      for (const key of keys) {
        expect(STRINGS[lang][key].trim(), `${lang}.${key}`).not.toBe('');
        expect(placeholders(STRINGS[lang][key]), `${lang}.${key}`).toEqual(placeholders(STRINGS.en[key]));
      }
    }
  });

  it('fill in values and format money in the session language', () => {
    const pt = createI18n('pt', 'BRL');
    expect(pt.t('won', { prize: pt.money(1250) })).toBe('Você ganhou R$\u00a012,50!');
    expect(createI18n('en', 'BRL').money(1250)).toBe('R$12.50');
    expect(createI18n('es', 'BRL').count(100001)).toBe('100.001');
  });

  it('say every server error in every language', () => {
    for (const lang of ['pt', 'en', 'es'] as const) {
      const i18n = createI18n(lang);
      for (const code of PLAY_ERROR_CODES) expect(i18n.error(code)).not.toBe('');
      expect(i18n.error('OFFLINE')).toBe(STRINGS[lang].offline);
    }
  });
});
