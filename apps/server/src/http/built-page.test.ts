import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeAttribute, withRoot } from './built-page.ts';

const readBack = (value: string): string =>
  value
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');

describe('escapeAttribute', () => {
  it('leaves no character that could end the attribute or open a tag, and loses nothing', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        const escaped = escapeAttribute(value);
        expect(escaped).not.toMatch(/["'<>]/);
        expect(readBack(escaped)).toBe(value);
      }),
    );
  });
});

describe('withRoot', () => {
  it('replaces the built root element with the given attributes, leaving out undefined ones (and no replacement patterns read in a value)', () => {
    const html = '<!doctype html><html lang="en" class="x"><head></head><body></body></html>';
    expect(withRoot(html, { lang: 'pt', 'data-a': '"><script>', 'data-b': undefined, 'data-c': '$&' })).toBe(
      '<!doctype html><html lang="pt" data-a="&quot;&gt;&lt;script&gt;" data-c="$&amp;"><head></head><body></body></html>',
    );
  });
});
