import { localTime } from '@raspa/browser-kit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../i18n/i18n.ts';
import { buyLabel, EXPIRY_SOON_MS, freeCardsNote } from './free-cards-wording.ts';

const LANGS = ['pt', 'en', 'es'] as const;
const NOW = Date.parse('2026-11-26T10:00:00Z');
const at = (ms: number) => new Date(NOW + ms).toISOString();
const utc = (lang: (typeof LANGS)[number]) => (iso: string) => localTime(iso, lang, 'UTC');

describe('the buy button with free cards', () => {
  it('says it is free and how many are held, plural forms right in each language', () => {
    const price = 'R$ 2,00';
    expect(buyLabel(createI18n('en'), 2, false, price)).toBe('Play a free card · 2 left');
    expect(buyLabel(createI18n('en'), 1, true, price)).toBe('Play a free card · 1 left');
    expect(buyLabel(createI18n('pt'), 2, false, price)).toBe('Jogar grátis · restam 2');
    expect(buyLabel(createI18n('pt'), 1, false, price)).toBe('Jogar grátis · resta 1');
    expect(buyLabel(createI18n('es'), 2, false, price)).toBe('Jugar gratis · quedan 2');
    expect(buyLabel(createI18n('es'), 1, false, price)).toBe('Jugar gratis · queda 1');
    expect(buyLabel(createI18n('pt'), 1000, false, price)).toBe('Jogar grátis · restam 1.000');
  });

  it('shows the price again once none is left, "another" after a first card', () => {
    const en = createI18n('en', 'BRL');
    const price = en.money(200);
    expect(buyLabel(en, 0, false, price)).toBe(en.t('buy', { price }));
    expect(buyLabel(en, 0, true, price)).toBe(en.t('buyAnother', { price }));
  });

  it('names the count, and never the price, whenever a card is held (every count, every language)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...LANGS),
        fc.integer({ min: 1, max: 1000 }),
        fc.boolean(),
        (lang, count, another) => {
          const i18n = createI18n(lang, 'BRL');
          const price = i18n.money(200);
          const label = buyLabel(i18n, count, another, price);
          expect(label).toContain(i18n.count(count));
          expect(label).not.toContain(price);
        },
      ),
    );
  });
});

describe('the free-card note after each card', () => {
  it('says how many are left, one or several, in each language', () => {
    const far = { count: 2, expireAt: at(7 * 24 * 3_600_000) };
    const note = (lang: (typeof LANGS)[number], count: number) =>
      freeCardsNote(createI18n(lang), {
        freeCards: { ...far, count },
        lastRoundFree: true,
        now: NOW,
        time: utc(lang),
      });
    expect(note('en', 2)).toBe('You have 2 free cards left.');
    expect(note('en', 1)).toBe('You have 1 free card left.');
    expect(note('pt', 2)).toBe('Restam 2 raspadinhas grátis.');
    expect(note('pt', 1)).toBe('Resta 1 raspadinha grátis.');
    expect(note('es', 2)).toBe('Te quedan 2 tarjetas gratis.');
    expect(note('es', 1)).toBe('Te queda 1 tarjeta gratis.');
  });

  it('adds until when within a day of the first expiry, in the player’s time', () => {
    const soon = at(3 * 3_600_000);
    const en = createI18n('en');
    expect(
      freeCardsNote(en, {
        freeCards: { count: 1, expireAt: soon },
        lastRoundFree: false,
        now: NOW,
        time: utc('en'),
      }),
    ).toBe('You have 1 free card left. Valid until 11/26/26, 1:00 PM.');
    const pt = createI18n('pt');
    expect(
      freeCardsNote(pt, {
        freeCards: { count: 2, expireAt: soon },
        lastRoundFree: false,
        now: NOW,
        time: utc('pt'),
      }),
    ).toBe('Restam 2 raspadinhas grátis. Válidas até 26/11/2026, 13:00.');
  });

  it('says "that was your last" only right after the last free card; nothing for a player who had none', () => {
    const none = { count: 0, expireAt: null };
    for (const lang of LANGS) {
      const i18n = createI18n(lang);
      expect(freeCardsNote(i18n, { freeCards: none, lastRoundFree: true, now: NOW, time: utc(lang) })).toBe(
        i18n.t('freeLastUsed'),
      );
      expect(freeCardsNote(i18n, { freeCards: none, lastRoundFree: false, now: NOW, time: utc(lang) })).toBe(
        '',
      );
    }
  });

  it('gives the expiry exactly when it is less than a day away (every count, every distance)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...LANGS),
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 0, max: 3 * EXPIRY_SOON_MS }),
        fc.boolean(),
        (lang, count, inMs, lastRoundFree) => {
          const i18n = createI18n(lang);
          const expireAt = at(inMs);
          const time = utc(lang);
          const note = freeCardsNote(i18n, { freeCards: { count, expireAt }, lastRoundFree, now: NOW, time });
          expect(note).toContain(i18n.count(count));
          expect(note.includes(time(expireAt))).toBe(inMs < EXPIRY_SOON_MS);
        },
      ),
    );
  });
});
