// The CSV writer lives in @raspa/core (the sandbox writes the PAR sheet with it too); its test stays here,
// beside the CSV reader the service's tests share.
import { neutraliseCell, startsLikeFormula, toCsv, toCsvTables } from '@raspa/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readCsvRecords as readCsv } from '../../test/csv-reader.ts';
import { csvColumnsOf } from './csv-columns.ts';

/** Every way a formula may start: a sign in any width, a tab, a carriage return or a line feed. */
const SIGNS = ['=', '+', '-', '@', '＝', '＋', '－', '＠', '﹦', '﹢', '﹣', '﹫'];
const CONTROLS = ['\t', '\r', '\n'];
/** What a spreadsheet may strip before it reads the sign. */
const blanks = fc
  .array(fc.constantFrom(' ', '\t', '\r', '\n', '\u00a0', '\u3000', '\u2003'), { maxLength: 4 })
  .map((list) => list.join(''));
/** Text that starts like a formula, behind blanks or not. */
const formulaText = fc.oneof(
  fc
    .tuple(blanks, fc.constantFrom(...SIGNS), fc.string())
    .map(([before, sign, rest]) => before + sign + rest),
  fc.tuple(fc.constantFrom(...CONTROLS), fc.string()).map(([control, rest]) => control + rest),
);
/** Text that often starts like a formula. */
const riskyText = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), formulaText);

describe('neutraliseCell (OWASP, CSV injection)', () => {
  it('puts one quote before every text that starts like a formula, behind blanks and in any width', () => {
    fc.assert(
      fc.property(formulaText, (text) => {
        expect(neutraliseCell(text)).toBe(`'${text}`);
      }),
    );
  });

  it('changes any text at most by one quote in front, and leaves no cell starting like a formula', () => {
    fc.assert(
      fc.property(riskyText, (text) => {
        const cell = neutraliseCell(text);
        expect([text, `'${text}`]).toContain(cell);
        // The oracle, written apart from the rule: blanks stripped, the first character read as NFKC.
        const stripped = cell.replace(/^\s+/u, '');
        expect(CONTROLS).not.toContain(cell[0]);
        expect(['=', '+', '-', '@']).not.toContain(stripped.normalize('NFKC')[0]);
        if (cell === text) expect(startsLikeFormula(text)).toBe(false);
      }),
    );
  });

  it('leaves text that starts otherwise as it is, blanks before it or not', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('', ' ', '  ', '\u00a0'),
        fc.string({ minLength: 1 }).filter((rest) => !/^[\s=+\-@]/u.test(rest)),
        (before, rest) => {
          expect(neutraliseCell(before + rest)).toBe(before + rest);
        },
      ),
    );
  });

  it('neutralises the issues’ examples', () => {
    for (const text of [
      '=HYPERLINK("http://x","click")',
      '+cmd|x',
      '-2+3',
      '@SUM(A1)',
      '\t=1',
      '\r=1',
      '\n=1',
      '  =1+1',
      '\t -2',
      ' \n@SUM(A1)',
      '＝1+1',
      '＋cmd',
      '－2',
      '＠SUM(A1)',
      '\u3000＝1',
    ]) {
      expect(neutraliseCell(text)).toBe(`'${text}`);
    }
    expect(neutraliseCell("'quoted already")).toBe("'quoted already");
    expect(neutraliseCell('  plain')).toBe('  plain');
    expect(neutraliseCell('')).toBe('');
    expect(neutraliseCell('   ')).toBe('   ');
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

describe('toCsvTables', () => {
  it('writes each table as toCsv does, neutralised, with one blank line between them', () => {
    const text = toCsvTables([
      {
        columns: { figure: 'text', value: 'number' },
        rows: [
          { figure: 'rtp', value: 0.9 },
          { figure: '=1+1', value: '-2' },
        ],
      },
      { columns: { level: 'number' }, rows: [{ level: 1 }] },
    ]);
    expect(text).toBe('figure,value\r\nrtp,0.9\r\n"\'=1+1","\'-2"\r\n\r\nlevel\r\n1\r\n');
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
