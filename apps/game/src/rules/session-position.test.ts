import type { PlayRound } from '@raspa/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  fromServer,
  netOf,
  openPosition,
  type SessionPosition,
  withBet,
  withPrize,
} from './session-position.ts';

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

describe("the server's figures as the page's base", () => {
  const figures = (startedAt: number, asOf: number, wagered: number, won: number) => ({
    startedAt: new Date(startedAt).toISOString(),
    asOf: new Date(asOf).toISOString(),
    wagered,
    won,
    net: won - wagered,
  });

  it("takes the session's elapsed time on the server's clock, whatever the page's clock says", () => {
    // The server read them 10 minutes into the session; the page's clock is 2 hours behind.
    const localNow = Date.parse('2026-03-01T10:00:00.000Z');
    const position = fromServer(
      figures(Date.parse('2026-03-01T11:50:00.000Z'), Date.parse('2026-03-01T12:00:00.000Z'), 600, 200),
      null,
      localNow,
    );
    expect(localNow - position.startedAt).toBe(10 * 60_000);
    expect(netOf(position)).toBe(-400);
  });

  it('counts the prize of the card in play once paid, and nothing more of its price', () => {
    let position = fromServer(figures(0, 1000, 400, 0), round('live', 200, 500, 'open'), 1000);
    position = withBet(position, round('live', 200, 500, 'open')); // the resumed card's news
    position = withPrize(position, round('live', 200, 500, 'closing'));
    expect(netOf(position)).toBe(-400);
    position = withPrize(position, round('live', 200, 500, 'closed'));
    position = withPrize(position, round('live', 200, 500, 'closed'));
    expect(netOf(position)).toBe(100);
  });

  it("is the server's figures plus the page's cards after them, whatever the clocks and the news", () => {
    const time = fc.integer({ min: 0, max: 4_000_000_000_000 });
    const money = fc.integer({ min: 0, max: 1_000_000 });
    const news = fc.array(
      fc.record({
        id: fc.constantFrom('old', 'new1', 'new2'),
        kind: fc.constantFrom('bet', 'prize'),
        status: fc.constantFrom('open', 'closing', 'closed') as fc.Arbitrary<PlayRound['status']>,
      }),
    );
    fc.assert(
      fc.property(
        time,
        fc.nat(86_400_000),
        time,
        money,
        money,
        news,
        (asOf, played, localNow, w, v, events) => {
          let position = fromServer(figures(asOf - played, asOf, w, v), null, localNow);
          expect(localNow - position.startedAt).toBe(played);
          expect(netOf(position)).toBe(v - w);
          // 'old' is a card the figures hold already (bought before): its prize is never counted again.
          const paid = new Set<string>();
          const bought = new Set<string>();
          for (const { id, kind, status } of events) {
            const r = round(id, 200, 700, status);
            if (kind === 'bet' && id !== 'old') {
              position = withBet(position, r);
              bought.add(id);
            } else if (kind === 'prize') {
              position = withPrize(position, r);
              if (status === 'closed' && bought.has(id)) paid.add(id);
            }
          }
          expect(position.wagered).toBe(w + 200 * bought.size);
          expect(position.won).toBe(v + 700 * paid.size);
        },
      ),
    );
  });
});
