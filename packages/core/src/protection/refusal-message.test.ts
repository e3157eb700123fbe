import { describe, expect, it } from 'vitest';
import { PLAY_ERRORS } from '../protocol/play-errors.ts';
import { buyRefusalMessage } from './refusal-message.ts';

// 2026-11-27 00:00 in São Paulo.
const RESET = Date.parse('2026-11-27T03:00:00.000Z');
const refusal = {
  ok: false as const,
  code: 'LIMIT_REACHED' as const,
  limit: {
    type: 'loss' as const,
    period: 'day' as const,
    currency: 'BRL',
    amount: 5000,
    used: 4900,
    resetAt: RESET,
  },
};

describe('buyRefusalMessage', () => {
  it('names the limit, its amount and when it resets, in the profile’s zone and the player’s language', () => {
    const sp = 'America/Sao_Paulo';
    expect(buyRefusalMessage(refusal, 'pt', sp)).toMatch(
      /limite diário de perda de R\$\s50,00\. Ele renova em 27\/11\/2026,? 00:00/,
    );
    expect(buyRefusalMessage(refusal, 'en', sp)).toMatch(
      /daily loss limit of R\$50\.00\. It resets on 11\/27\/26,? 12:00\sAM/,
    );
    expect(buyRefusalMessage(refusal, 'es', sp)).toMatch(
      /límite diario de pérdida de 50,00\sBRL\. Se renueva el 27\/11\/26,? 0:00/,
    );
  });

  it('answers the play error’s sentence for the other refusals', () => {
    expect(buyRefusalMessage({ ok: false, code: 'REALITY_CHECK', dueAt: RESET }, 'es', 'UTC')).toBe(
      PLAY_ERRORS.REALITY_CHECK.es,
    );
  });
});
