import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isForcibleLevel, unforcibleLevels } from './forced-levels.ts';

/** A ladder's levels 1..n, some without winners (a version may leave a level empty). */
const ladders = fc
  .array(fc.nat({ max: 3 }), { minLength: 1, maxLength: 8 })
  .map((winners) => ({ levels: winners.map((count, index) => ({ level: index + 1, winners: count })) }));

describe('forced levels', () => {
  it('allows a losing card and every level with winning tickets, nothing else', () => {
    fc.assert(
      fc.property(ladders, fc.integer({ min: -2, max: 10 }), (ladder, level) => {
        const found = ladder.levels.find((each) => each.level === level);
        const expected = level === 0 || (found !== undefined && found.winners > 0);
        expect(isForcibleLevel(ladder, level)).toBe(expected);
      }),
    );
  });

  it('names each refused level once, in the order first met', () => {
    const ladder = {
      levels: [
        { level: 1, winners: 5 },
        { level: 2, winners: 0 },
      ],
    };
    expect(unforcibleLevels(ladder, [0, 9, 1, 2, 9, -1, 0])).toEqual([9, 2, -1]);
    expect(unforcibleLevels(ladder, [1, 0, 1])).toEqual([]);
  });
});
