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

  it('reads --simulate N with --seed, the seed defaulting to the sandbox default', () => {
    expect(parseLadderArgs([...good, '--simulate', '100'])).toMatchObject({
      ok: true,
      command: { json: false, simulate: { cards: 100, seed: 1 } },
    });
    expect(parseLadderArgs([...good, '--simulate', '10000', '--seed', '4294967295'])).toMatchObject({
      ok: true,
      command: { simulate: { cards: 10_000, seed: 4_294_967_295 } },
    });
    const plain = parseLadderArgs(good);
    expect(plain.ok && 'simulate' in plain.command).toBe(false);
  });

  it('refuses a bad --simulate or --seed, and --simulate with --json', () => {
    expect(parseLadderArgs([...good, '--simulate', '0', '--seed', '1e3'])).toEqual({
      ok: false,
      errors: [
        '--simulate must be a whole number of cards from 1 to 10,000',
        '--seed must be a whole number from 0 to 4294967295',
      ],
    });
    expect(parseLadderArgs([...good, '--simulate', '1.5'])).toMatchObject({ ok: false });
    expect(parseLadderArgs([...good, '--simulate', '10001'])).toMatchObject({ ok: false });
    expect(parseLadderArgs([...good, '--seed', '3'])).toEqual({
      ok: false,
      errors: ['--seed only applies with --simulate'],
    });
    expect(parseLadderArgs([...good, '--simulate', '10', '--json'])).toEqual({
      ok: false,
      errors: ['--simulate prints after the table; it cannot be combined with --json'],
    });
  });

  it('refuses unknown options', () => {
    expect(parseLadderArgs([...good, '--fast'])).toMatchObject({
      ok: false,
      errors: [expect.stringMatching(/--fast/)],
    });
  });
});
