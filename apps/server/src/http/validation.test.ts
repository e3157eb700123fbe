import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../services/api-error.ts';
import { nulMessages, parseOrThrow } from './validation.ts';

const NUL_MESSAGE = ': must not contain the NUL character (U+0000)';

/** A string with a NUL somewhere in it. */
const withNul = fc
  .tuple(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 }))
  .map(([before, after]) => `${before}\u0000${after}`);

/** Request values (a body, a query, path parameters) whose strings and keys may hold a NUL. */
const requestValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string(),
    withNul,
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string({ maxLength: 4 }), withNul), tie('value'), { maxKeys: 4 }),
  ),
})).value;

describe('nulMessages', () => {
  it('finds nothing in any value without a NUL', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        fc.pre(!JSON.stringify(value).includes('\\u0000'));
        expect(nulMessages(value, 'body')).toEqual([]);
      }),
    );
  });

  it('names one field per string or key holding a NUL, and only those', () => {
    fc.assert(
      fc.property(requestValue, (value) => {
        // The oracle: JSON.stringify visits every key and string once.
        let expected = 0;
        JSON.stringify(value, function (this: unknown, key: string, v: unknown) {
          if (key.includes('\u0000') && !Array.isArray(this)) expected++;
          if (typeof v === 'string' && v.includes('\u0000')) expected++;
          return v;
        });
        const messages = nulMessages(value, 'body');
        expect(messages).toHaveLength(expected);
        for (const message of messages) {
          expect(message.endsWith(NUL_MESSAGE)).toBe(true);
          // The field is named with the NUL written out, never the character itself.
          expect(message.includes('\u0000')).toBe(false);
        }
      }),
    );
  });

  it('names the field as the schemas’ messages do', () => {
    expect(nulMessages({ userId: '\u0000' }, 'path')).toEqual([`userId${NUL_MESSAGE}`]);
    expect(nulMessages({ players: ['a', 'b\u0000'], name: 'x\u0000' }, 'body')).toEqual([
      `players.1${NUL_MESSAGE}`,
      `name${NUL_MESSAGE}`,
    ]);
    expect(nulMessages({ 'k\u0000': 1 }, 'body')).toEqual([`k\\u0000${NUL_MESSAGE}`]);
    expect(nulMessages('\u0000', 'body')).toEqual([`body${NUL_MESSAGE}`]);
  });
});

describe('parseOrThrow', () => {
  it('refuses a NUL even where the schema would take the string', () => {
    const schema = z.object({ name: z.string() });
    expect(parseOrThrow(schema, { name: 'Ana' }, 'body')).toEqual({ name: 'Ana' });
    expect(() => parseOrThrow(schema, { name: 'A\u0000na' }, 'body')).toThrow(
      new ApiError('VALIDATION_ERROR', [`name${NUL_MESSAGE}`]),
    );
  });
});
