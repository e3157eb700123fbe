import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nonFinitePaths } from './finite-body.ts';

const valueAt = (root: unknown, path: string): unknown =>
  path
    .split('.')
    .slice(1)
    .reduce<unknown>((value, key) => (value as Record<string, unknown>)[key], root);

/** JSON values whose numbers may be ±Infinity or NaN, as JSON.parse can leave them (1e309). */
const body = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.double(),
    fc.constantFrom(Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY),
    fc.string(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    // No '.' in keys: the test walks a path back by splitting on it.
    fc.dictionary(
      fc.string({ maxLength: 4 }).filter((key) => !key.includes('.')),
      tie('value'),
      { maxKeys: 4 },
    ),
  ),
})).value;

describe('nonFinitePaths', () => {
  it('finds nothing in any body JSON.parse can give from finite numbers', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(nonFinitePaths(value)).toEqual([]);
      }),
    );
  });

  it('names every non-finite number, and only those, by its path', () => {
    fc.assert(
      fc.property(body, (value) => {
        // The oracle: JSON.stringify visits every value once; count the numbers it cannot write.
        let expected = 0;
        JSON.stringify(value, (_key, v: unknown) => {
          if (typeof v === 'number' && !Number.isFinite(v)) expected++;
          return v;
        });
        const paths = nonFinitePaths(value);
        expect(paths).toHaveLength(expected);
        for (const path of paths) {
          const found = valueAt(value, path);
          expect(typeof found === 'number' && !Number.isFinite(found)).toBe(true);
        }
      }),
    );
  });

  it('names nested paths in document order, arrays by index', () => {
    const parsed = JSON.parse('{"a":[1,{"b":-1e309}],"c":1e309,"d":{"e":[2,-1e309]}}');
    expect(nonFinitePaths(parsed)).toEqual(['body.a.1.b', 'body.c', 'body.d.e.1']);
  });

  it('walks a deeply nested body without overflowing the stack', () => {
    const deep = JSON.parse(`${'['.repeat(20_000)}1e309${']'.repeat(20_000)}`);
    expect(nonFinitePaths(deep)).toEqual([`body${'.0'.repeat(20_000)}`]);
  });
});
