import { describe, expect, it } from 'vitest';
import { parseLadderArgs } from './ladder-args.ts';

const good = [
  '--model',
  'oxe-ganhei',
  '--rtp',
  '0.9',
  '--sampling',
  '1000000',
  '--prized',
  '0.3',
  '--bet',
  '2',
];

describe('parseLadderArgs', () => {
  it('reads every option, currency defaulting to BRL', () => {
    expect(parseLadderArgs(good)).toEqual({
      ok: true,
      command: {
        json: false,
        input: {
          gameModel: 'oxe-ganhei',
          rtp: 0.9,
          sampling: 1_000_000,
          prizedPercent: 0.3,
          betPrice: 2,
          currency: 'BRL',
        },
      },
    });
    expect(parseLadderArgs([...good, '--currency', 'jpy', '--json'])).toMatchObject({
      ok: true,
      command: { json: true, input: { currency: 'JPY' } },
    });
  });

  it('reports every missing or unreadable option at once', () => {
    expect(parseLadderArgs(['--model', 'slot', '--rtp', 'high'])).toEqual({
      ok: false,
      errors: [
        '--model must be one of oxe-ganhei, trem-de-ouro-v1, trem-de-ouro-v2, trem-de-ouro-v3, frevo-da-sorte, bumba-meu-green, fera-sortuda',
        '--rtp must be a number, got "high"',
        '--sampling is required',
        '--prized is required',
        '--bet is required',
      ],
    });
  });

  it('refuses unknown options', () => {
    expect(parseLadderArgs([...good, '--fast'])).toMatchObject({
      ok: false,
      errors: [expect.stringMatching(/--fast/)],
    });
  });
});
