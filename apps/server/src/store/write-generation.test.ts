import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideWriteGeneration, type GenerationDecision } from './write-generation.ts';

const GENERATIONS = [0, 1, 2, 3, 4];
const MINIMA = [null, ...GENERATIONS];

/** Every multiset of up to three live generations out of GENERATIONS. */
function liveSets(): number[][] {
  const sets: number[][] = [[]];
  for (const a of GENERATIONS) {
    sets.push([a]);
    for (const b of GENERATIONS.filter((g) => g >= a)) {
      sets.push([a, b]);
      for (const c of GENERATIONS.filter((g) => g >= b)) sets.push([a, b, c]);
    }
  }
  return sets;
}

describe('which generation may write (decideWriteGeneration)', () => {
  it('refuses exactly an older build, waits exactly while a raise would mix rules, else writes (every case up to 4)', () => {
    let cases = 0;
    for (const code of GENERATIONS)
      for (const minimum of MINIMA)
        for (const live of liveSets()) {
          const decision = decideWriteGeneration({ code, minimum, live });
          const floor = minimum ?? 0;
          const olderWriter = live.some((g) => g >= floor && g < code);
          const expected: GenerationDecision['action'] =
            code < floor ? 'refuse' : code > floor && olderWriter ? 'wait' : 'write';
          expect(decision.action, JSON.stringify({ code, minimum, live })).toBe(expected);
          if (decision.action !== 'write') expect(decision.reason).toContain(`generation ${code}`);
          cases++;
        }
    expect(cases).toBe(GENERATIONS.length * MINIMA.length * liveSets().length);
  });

  it('never holds back an upgrade that raises nothing, nor one with no other instance alive', () => {
    fc.assert(
      fc.property(fc.nat(20), fc.array(fc.nat(20), { maxLength: 6 }), (code, live) => {
        expect(decideWriteGeneration({ code, minimum: code, live }).action).toBe('write');
        expect(decideWriteGeneration({ code, minimum: null, live: [] }).action).toBe('write');
      }),
    );
  });

  it('depends on the live generations only, not on their order or how many share one', () => {
    fc.assert(
      fc.property(
        fc.nat(8),
        fc.option(fc.nat(8), { nil: null }),
        fc.array(fc.nat(8), { maxLength: 6 }),
        (code, minimum, live) => {
          const once = decideWriteGeneration({ code, minimum, live });
          const shuffled = [...live, ...live].reverse();
          expect(decideWriteGeneration({ code, minimum, live: shuffled })).toEqual(once);
        },
      ),
    );
  });

  /**
   * A fleet over time: instances of any generation start (deciding as above; one that writes and is
   * newer than the minimum raises it, as its migrations do) and stop in any order; one waiting
   * decides again whenever another stops. Never does an instance write beside one whose generation
   * is below the database's minimum, and once every writer has stopped, no instance waits.
   */
  it('never lets two writers straddle the minimum, through any sequence of starts and stops', () => {
    const event = fc.oneof(
      fc.record({ start: fc.nat(4) }),
      fc.record({ stop: fc.nat(10) }),
      fc.constant({ stopAll: true as const }),
    );
    fc.assert(
      fc.property(fc.array(event, { maxLength: 40 }), (events) => {
        let minimum: number | null = null;
        let writers: number[] = [];
        let waiting: number[] = [];
        const start = (code: number) => {
          const decision = decideWriteGeneration({ code, minimum, live: writers });
          if (decision.action === 'write') {
            writers.push(code);
            if (code > (minimum ?? 0)) minimum = code;
            return true;
          }
          return decision.action === 'refuse'; // refused: gone for good
        };
        const retryWaiting = () => {
          waiting = waiting.filter((code) => !start(code));
        };
        for (const step of events) {
          if ('start' in step) {
            if (!start(step.start)) waiting.push(step.start);
          } else if ('stop' in step) {
            if (writers.length > 0) writers.splice(step.stop % writers.length, 1);
            retryWaiting();
          } else {
            writers = [];
            retryWaiting();
            // The first one waiting writes now; only instances newer than a writer still wait.
            const writing = Math.min(...writers);
            expect(waiting.every((code) => code > writing)).toBe(true);
          }
          const floor = minimum ?? 0;
          expect(writers.every((code) => code >= floor)).toBe(true);
        }
      }),
    );
  });
});
