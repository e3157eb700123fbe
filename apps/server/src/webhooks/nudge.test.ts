import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  batchedReports,
  coalescedNudge,
  DELIVERY_NUDGE,
  isDeliveryNudge,
  isSettledReport,
  type SettledReport,
} from './nudge.ts';

describe('coalescedNudge', () => {
  it('sends one message per turn, whatever the nudges in it, and none for a turn without one', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 5 }), { maxLength: 20 }), (nudgesPerTurn) => {
        let turnEnd: Array<() => void> = [];
        let sent = 0;
        const nudge = coalescedNudge(
          () => sent++,
          (callback) => turnEnd.push(callback),
        );
        for (const nudges of nudgesPerTurn) {
          for (let i = 0; i < nudges; i++) nudge();
          const callbacks = turnEnd;
          turnEnd = [];
          for (const callback of callbacks) callback();
        }
        expect(sent).toBe(nudgesPerTurn.filter((n) => n > 0).length);
      }),
    );
  });

  it('sends by default at the end of the turn', async () => {
    let sent = 0;
    const nudge = coalescedNudge(() => sent++);
    nudge();
    nudge();
    expect(sent).toBe(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toBe(1);
  });
});

describe('isDeliveryNudge', () => {
  it('knows its own message and nothing else (the Socket.IO cluster adapter shares the channel)', () => {
    expect(isDeliveryNudge(structuredClone(DELIVERY_NUDGE))).toBe(true);
    for (const other of [
      null,
      undefined,
      'webhook-events-queued',
      { source: '_sio_adapter' },
      { raspa: 'x' },
    ])
      expect(isDeliveryNudge(other)).toBe(false);
  });
});

describe('batchedReports', () => {
  it('sends the attempts of each turn once, in order, in one report the other side recognises', () => {
    let turnEnd: Array<() => void> = [];
    const sent: SettledReport[] = [];
    const report = batchedReports(
      (each) => sent.push(structuredClone(each)),
      (callback) => turnEnd.push(callback),
    );
    const endTurn = () => {
      const callbacks = turnEnd;
      turnEnd = [];
      for (const callback of callbacks) callback();
    };
    report('delivered', 0.5);
    report('failed');
    endTurn();
    endTurn();
    report('given_up');
    endTurn();
    expect(sent.map((each) => each.attempts)).toEqual([
      [
        ['delivered', 0.5],
        ['failed', null],
      ],
      [['given_up', null]],
    ]);
    expect(sent.every(isSettledReport)).toBe(true);
    expect(isSettledReport(DELIVERY_NUDGE)).toBe(false);
  });
});
