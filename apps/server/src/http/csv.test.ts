import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readCsvRecords as readCsv } from '../../test/csv-reader.ts';
import { neutraliseCell, toCsv } from './csv.ts';
import { csvColumnsOf } from './csv-columns.ts';

const TRIGGERS = ['=', '+', '-', '@', '\t', '\r'];
/** Text that often starts like a formula. */
const riskyText = fc.oneof(
  fc.string(),
  fc.tuple(fc.constantFrom(...TRIGGERS), fc.string()).map(([first, rest]) => first + rest),
);

describe('neutraliseCell (OWASP, CSV injection)', () => {
  it('leaves no cell starting with a formula character, and the original is its text without the one quote added', () => {
    fc.assert(
      fc.property(riskyText, (text) => {
        const cell = neutraliseCell(text);
        expect(TRIGGERS).not.toContain(cell[0]);
        if (cell !== text) {
          expect(cell).toBe(`'${text}`);
          expect(cell.slice(1)).toBe(text);
          expect(TRIGGERS).toContain(text[0]);
        } else {
          expect(TRIGGERS).not.toContain(text[0]);
        }
      }),
    );
  });

  it('neutralises the issue’s examples', () => {
    for (const text of ['=HYPERLINK("http://x","click")', '+cmd|x', '-2+3', '@SUM(A1)', '\t=1', '\r=1']) {
      expect(neutraliseCell(text)).toBe(`'${text}`);
    }
    expect(neutraliseCell("'quoted already")).toBe("'quoted already");
    expect(neutraliseCell('')).toBe('');
  });
});

describe('toCsv', () => {
  it('reads back as the same header and fields, text neutralised and numbers as numbers', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            riskyText,
            fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(null)),
          ),
        ),
        (rows) => {
          const records = rows.map(([text, number]) => ({ text, number }));
          const read = readCsv(toCsv({ text: 'text', number: 'number' }, records));
          expect(read[0]).toEqual(['text', 'number']);
          expect(read.slice(1)).toEqual(
            records.map(({ text, number }) => [
              neutraliseCell(text),
              number === null ? '' : JSON.stringify(number),
            ]),
          );
        },
      ),
    );
  });

  it('keeps a neutralised text cell quoted, and a negative amount a bare number', () => {
    expect(
      toCsv({ credential: 'text', amount: 'number' }, [
        { credential: '=HYPERLINK("http://x","click")', amount: -150 },
        { credential: '-2+3', amount: -1.5 },
        { credential: '\tx', amount: 0 },
      ]),
    ).toBe(
      'credential,amount\r\n' +
        `"'=HYPERLINK(""http://x"",""click"")",-150\r\n` +
        `"'-2+3",-1.5\r\n` +
        `"'\tx",0\r\n`,
    );
  });

  it('treats anything but a number in a number column as text', () => {
    expect(toCsv({ amount: 'number' }, [{ amount: '=1+1' }])).toBe(`amount\r\n"'=1+1"\r\n`);
  });

  it('quotes only what needs it', () => {
    expect(
      toCsv({ a: 'text', b: 'text' }, [
        { a: 'x,y', b: 'say "hi"' },
        { a: 'line\nbreak', b: 1.5 },
      ]),
    ).toBe('a,b\r\n"x,y","say ""hi"""\r\n"line\nbreak",1.5\r\n');
  });
});

describe('csvColumnsOf', () => {
  it('makes number fields (nullable or optional too) number columns and every other field text', () => {
    const schema = z.object({
      id: z.string(),
      amount: z.number(),
      balance: z.number().nullable(),
      count: z.number().int().optional(),
      status: z.enum(['a', 'b']),
      at: z.string().nullable(),
    });
    expect(csvColumnsOf(schema)).toEqual({
      id: 'text',
      amount: 'number',
      balance: 'number',
      count: 'number',
      status: 'text',
      at: 'text',
    });
  });
});
