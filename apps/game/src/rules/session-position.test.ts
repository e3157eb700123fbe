import type { PlayRound } from '@raspa/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { netOf, openPosition, type SessionPosition, withBet, withPrize } from './session-position.ts';

const round = (roundId: string, price: number, prize: number, status: PlayRound['status']): PlayRound => ({
  roundId,
  status,
  card: {
    model: 'oxe-ganhei',
    rule: '',
    rows: 0,
    cols: 0,
    cells: [],
    extras: [],
    winningCells: [],
    winningExtras: [],
  },
  level: prize > 0 ? 1 : 0,
  prize,
  price,
  createdAt: '2026-03-01T12:00:00.000Z',
  endAt: null,
  prizePending: status === 'closing',
});

describe("the session's net position as the page counts it", () => {
  it('counts a price at the buy and a prize once paid, each once', () => {
    let position = openPosition(1000);
    position = withBet(position, round('r1', 200, 1000, 'open'));
    expect(netOf(position)).toBe(-200);
    position = withPrize(position, round('r1', 200, 1000, 'closing')); // on its way: not yet
    expect(netOf(position)).toBe(-200);
    position = withPrize(position, round('r1', 200, 1000, 'closed'));
    position = withPrize(position, round('r1', 200, 1000, 'closed')); // pushed again
    position = withBet(position, round('r1', 200, 1000, 'closed'));
    expect(position).toMatchObject({ startedAt: 1000, wagered: 200, won: 1000 });
    expect(netOf(position)).toBe(800);
  });

  it('leaves out the prize of a card whose price it did not count (bought before the page opened)', () => {
    expect(netOf(withPrize(openPosition(0), round('old', 200, 500, 'closed')))).toBe(0);
  });

  it('is won − wagered over the cards seen, whatever the order and repeats of the news', () => {
    const news = fc.array(
      fc.record({
        id: fc.constantFrom('a', 'b', 'c', 'd'),
        kind: fc.constantFrom('bet', 'prize'),
        status: fc.constantFrom('open', 'closing', 'closed') as fc.Arbitrary<PlayRound['status']>,
      }),
    );
    fc.assert(
      fc.property(news, (events) => {
        const price = (id: string) => id.charCodeAt(0) * 10;
        const prize = (id: string) => id.charCodeAt(0) * 7;
        let position: SessionPosition = openPosition(0);
        for (const { id, kind, status } of events) {
          const r = round(id, price(id), prize(id), status);
          position = kind === 'bet' ? withBet(position, r) : withPrize(position, r);
        }
        const wagered = [...position.bets].reduce((sum, id) => sum + price(id), 0);
        const won = [...position.prizes].reduce((sum, id) => sum + prize(id), 0);
        expect(position.wagered).toBe(wagered);
        expect(position.won).toBe(won);
        expect([...position.prizes].every((id) => position.bets.has(id))).toBe(true);
        expect(netOf(position)).toBe(won - wagered);
      }),
    );
  });
});
