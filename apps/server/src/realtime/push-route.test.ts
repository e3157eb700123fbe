import { describe, expect, it } from 'vitest';
import { type PushSituation, pushRoute } from './push-route.ts';

const both = [false, true];

describe('where a push goes', () => {
  it('for every situation: here only when alone, or when this process holds the player and no other does', () => {
    for (const otherProcesses of both)
      for (const holdsSocket of both)
        for (const othersHoldSocket of both) {
          const situation: PushSituation = { otherProcesses, holdsSocket, othersHoldSocket };
          const expected = !otherProcesses || (holdsSocket && !othersHoldSocket) ? 'local' : 'everywhere';
          expect(pushRoute(situation), JSON.stringify(situation)).toBe(expected);
        }
  });

  it('crosses from a process that holds no socket of the player, whatever it knows (the retrier, the idle close)', () => {
    expect(pushRoute({ otherProcesses: true, holdsSocket: false, othersHoldSocket: false })).toBe(
      'everywhere',
    );
  });
});
