import { localTime } from '@raspa/browser-kit';
import type { PlayRound } from '@raspa/core';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../i18n/i18n.ts';
import { historyRows } from './history-rows.ts';

const card = {
  model: 'oxe-ganhei',
  rule: 'match-3',
  rows: 3,
  cols: 3,
  cells: [],
  extras: [],
  winningCells: [],
  winningExtras: [],
} as unknown as PlayRound['card'];

const round = (over: Partial<PlayRound>): PlayRound => ({
  roundId: 'r1',
  status: 'closed',
  card,
  level: 0,
  prize: 0,
  price: 200,
  createdAt: '2026-11-26T09:41:00.000Z',
  endAt: '2026-11-26T09:42:00.000Z',
  prizePending: false,
  ...over,
});

describe('the history list rows', () => {
  const pt = createI18n('pt', 'BRL');
  const time = (iso: string) => localTime(iso, 'pt', 'America/Sao_Paulo');

  it('show time in the player’s zone, price, prize and status, newest first as answered', () => {
    const rows = historyRows(
      [
        round({ roundId: 'b', level: 2, prize: 1000, price: 0 }),
        round({ roundId: 'a', createdAt: '2026-11-25T23:59:00.000Z' }),
      ],
      pt,
      time,
    );
    expect(rows.map((row) => row.roundId)).toEqual(['b', 'a']);
    expect(rows[0]).toEqual({
      roundId: 'b',
      time: '26/11/2026, 06:41',
      price: 'Grátis',
      prize: pt.money(1000),
      status: 'Encerrada',
      free: true,
      won: true,
      choosable: true,
    });
    expect(rows[1]).toMatchObject({
      time: '25/11/2026, 20:59',
      price: pt.money(200),
      prize: 'Sem prêmio',
      free: false,
      won: false,
    });
  });

  it('mark a free card as such in every language', () => {
    for (const lang of ['pt', 'en', 'es'] as const) {
      const i18n = createI18n(lang, 'BRL');
      const [row] = historyRows([round({ price: 0 })], i18n, (iso) => iso);
      expect(row?.price).toBe(i18n.t('historyFree'));
      expect(row?.free).toBe(true);
    }
  });

  it('say a prize still on its way, and never offer to scratch a round in play', () => {
    const en = createI18n('en', 'BRL');
    const rows = historyRows(
      [
        round({ roundId: 'open', status: 'open', endAt: null }),
        round({ roundId: 'paying', status: 'closed', level: 1, prize: 500, prizePending: true }),
        round({ roundId: 'closing', status: 'closing', level: 1, prize: 500 }),
        round({ roundId: 'voided', status: 'voided' }),
      ],
      en,
      (iso) => iso,
    );
    expect(rows.map((row) => [row.roundId, row.status, row.choosable])).toEqual([
      ['open', 'In play', false],
      ['paying', 'Prize on its way', true],
      ['closing', 'Prize on its way', true],
      ['voided', 'Voided', true],
    ]);
  });
});
