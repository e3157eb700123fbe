import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asLang, knownLang, LANGS, preferredLang } from './language.ts';

describe('the choice of language', () => {
  it('reads the first two letters of a tag, English for anything else', () => {
    expect(asLang('pt-BR')).toBe('pt');
    expect(asLang('ES')).toBe('es');
    expect(asLang('en-GB')).toBe('en');
    expect(asLang('fr-FR')).toBe('en');
    expect(asLang('')).toBe('en');
    expect(asLang(null)).toBe('en');
    expect(asLang(undefined)).toBe('en');
    expect(knownLang('fr')).toBeUndefined();
  });

  it('prefers a stored choice, then the first browser language it speaks, then English', () => {
    expect(preferredLang('es', ['pt-BR'])).toBe('es');
    expect(preferredLang(null, ['fr-FR', 'pt-BR', 'es'])).toBe('pt');
    expect(preferredLang('de', ['fr'])).toBe('en');
    expect(preferredLang(null, [])).toBe('en');
  });

  it('always answers a language every page speaks', () => {
    fc.assert(
      fc.property(fc.option(fc.string()), fc.array(fc.string()), (stored, browser) => {
        expect(LANGS).toContain(preferredLang(stored, browser));
        expect(LANGS).toContain(asLang(stored));
      }),
    );
  });

  it('takes a stored choice that names a language over whatever the browser says', () => {
    fc.assert(
      fc.property(fc.constantFrom(...LANGS), fc.string(), fc.array(fc.string()), (lang, region, browser) => {
        expect(preferredLang(`${lang}${region}`, browser)).toBe(lang);
      }),
    );
  });
});
