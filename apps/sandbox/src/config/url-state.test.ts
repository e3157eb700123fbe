import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type SandboxConfig } from './sandbox-config.ts';
import { stateFromQuery, stateToQuery } from './url-state.ts';

const b: SandboxConfig = {
  model: 'trem-de-ouro-v3',
  currency: 'JPY',
  rtp: '0.92',
  sampling: '2 000 000',
  prizedPercent: '0.25',
  betPrice: '100',
  lang: 'es',
  cards: '500',
  seed: '42',
};

describe('the state in the URL', () => {
  it('is the defaults with no query, and nothing to compare', () => {
    expect(stateFromQuery('')).toEqual({ a: DEFAULT_CONFIG, b: null });
  });

  it('round-trips A and B exactly as typed, B under the b. prefix', () => {
    const state = { a: { ...DEFAULT_CONFIG, rtp: '0.900', betPrice: '2.5' }, b };
    const query = stateToQuery(state);
    expect(query).toContain('rtp=0.900');
    expect(query).toContain('b.rtp=0.92');
    expect(query).toContain('prized=0.25');
    expect(stateFromQuery(query)).toEqual(state);
    expect(stateFromQuery(stateToQuery({ a: b, b: null }))).toEqual({ a: b, b: null });
  });

  it('keeps a bad number as typed (the page explains it) but drops an unknown model, currency or language', () => {
    const { a } = stateFromQuery('?rtp=0.99&model=slot&currency=xyz&lang=fr&bet=abc');
    expect(a).toEqual({ ...DEFAULT_CONFIG, rtp: '0.99', betPrice: 'abc' });
    expect(stateFromQuery('?currency=jpy').a.currency).toBe('JPY');
  });

  it('compares when any b. parameter is present (B starts from A) or with compare=1', () => {
    expect(stateFromQuery('?rtp=0.8&b.rtp=0.85').b).toEqual({ ...DEFAULT_CONFIG, rtp: '0.85' });
    expect(stateFromQuery('?model=fera-sortuda&compare=1').b).toEqual({
      ...DEFAULT_CONFIG,
      model: 'fera-sortuda',
    });
  });
});
