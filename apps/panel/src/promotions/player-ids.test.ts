import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstField, inBatches, PLAYER_ID_MAX_LENGTH, parsePlayerIds } from './player-ids.ts';

/** An id as the service makes them or an operator's system might: no spaces, separators or quotes. */
const anId = fc
  .stringMatching(/^[A-Za-z0-9_.:@-]{1,40}$/)
  .filter((id) => !/^(_?id|user_?id|user|player_?id|player)$/i.test(id));

describe('parsePlayerIds', () => {
  it('reads one id per line, trimmed, leaving out blanks and repeats and counting them', () => {
    const parsed = parsePlayerIds('  p-1\n\np-2\r\np-1\n   \np-3\n');
    expect(parsed).toEqual({
      ids: ['p-1', 'p-2', 'p-3'],
      repeats: 1,
      blanks: 2,
      header: false,
      problems: [],
    });
  });

  it('reads the first column of a CSV file, quoted or not, and skips its header and a byte-order mark', () => {
    const csv = '\uFEFFuserId,name\r\n"a,1",Ana\r\nb-2;Bia\r\nc-3\tCaio\r\n"d""4",Dora\r\n';
    expect(parsePlayerIds(csv)).toMatchObject({
      ids: ['a,1', 'b-2', 'c-3', 'd"4'],
      header: true,
      problems: [],
    });
  });

  it('takes a header name for an id anywhere but on the first line', () => {
    expect(parsePlayerIds('a\nid').ids).toEqual(['a', 'id']);
  });

  it('reports each line that holds no usable id, with its number and reason', () => {
    const long = 'x'.repeat(PLAYER_ID_MAX_LENGTH + 1);
    const parsed = parsePlayerIds(`ok\n,Ana\nJoão Silva\n${long}\n"open\nok-2`);
    expect(parsed.ids).toEqual(['ok', 'ok-2']);
    expect(parsed.problems.map(({ line, reason }) => [line, reason])).toEqual([
      [2, 'empty-id'],
      [3, 'spaces'],
      [4, 'too-long'],
      [5, 'unclosed-quote'],
    ]);
    expect(parsed.problems[2]?.text).toHaveLength(60);
  });

  it('keeps an id of exactly the longest length the service takes', () => {
    expect(parsePlayerIds('y'.repeat(PLAYER_ID_MAX_LENGTH)).problems).toEqual([]);
  });

  it('answers nothing for empty text', () => {
    expect(parsePlayerIds('')).toEqual({ ids: [], repeats: 0, blanks: 0, header: false, problems: [] });
  });

  it('gives the distinct ids in first-seen order, whatever the repeats, blanks, spaces and line ends', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(fc.oneof(anId, fc.constant('')), fc.constantFrom('\n', '\r\n', '\r'), fc.boolean()),
        ),
        (lines) => {
          const text = lines.map(([id, end, padded]) => (padded ? `  ${id}\t` : id) + end).join('');
          const listed = lines.map(([id]) => id).filter((id) => id !== '');
          const parsed = parsePlayerIds(text);
          expect(parsed.ids).toEqual([...new Set(listed)]);
          expect(parsed.problems).toEqual([]);
          expect(parsed.header).toBe(false);
          expect(parsed.repeats + parsed.ids.length).toBe(listed.length);
        },
      ),
    );
  });
});

describe('firstField', () => {
  it('is undefined for a quote left open, and the text before a separator otherwise', () => {
    expect(firstField('"abc')).toBeUndefined();
    expect(firstField('abc;def')).toBe('abc');
    expect(firstField('"a;b";c')).toBe('a;b');
  });
});

describe('inBatches', () => {
  it('cuts a list into calls of at most the size, in order, only the last one shorter', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 200 }), fc.integer({ min: 1, max: 50 }), (items, size) => {
        const batches = inBatches(items, size);
        expect(batches.flat()).toEqual(items);
        expect(batches.slice(0, -1).every((batch) => batch.length === size)).toBe(true);
        expect(batches.every((batch) => batch.length >= 1 && batch.length <= size)).toBe(true);
      }),
    );
  });

  it('refuses a size that is not a positive integer', () => {
    expect(() => inBatches([1], 0)).toThrow(RangeError);
  });
});
