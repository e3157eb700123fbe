import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readCsvRecords as readCsv } from '../../test/csv-reader.ts';
import { toCsv } from './csv.ts';

describe('toCsv', () => {
  it('reads back as the same header and fields, whatever the text holds', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.string(),
            fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(null)),
          ),
        ),
        (rows) => {
          const records = rows.map(([text, number]) => ({ text, number }));
          const read = readCsv(toCsv(['text', 'number'], records));
          expect(read[0]).toEqual(['text', 'number']);
          expect(read.slice(1)).toEqual(
            records.map(({ text, number }) => [text, number === null ? '' : JSON.stringify(number)]),
          );
        },
      ),
    );
  });

  it('quotes only what needs it', () => {
    expect(
      toCsv(
        ['a', 'b'],
        [
          { a: 'x,y', b: 'say "hi"' },
          { a: 'line\nbreak', b: 1.5 },
        ],
      ),
    ).toBe('a,b\r\n"x,y","say ""hi"""\r\n"line\nbreak",1.5\r\n');
  });
});
