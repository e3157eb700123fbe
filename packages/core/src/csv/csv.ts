/**
 * CSV (RFC 4180) of flat rows, for the service's lists, report and PAR sheet, and the sandbox's PAR
 * sheet export (one writer, so both neutralise alike): a header line, then
 * one line per row, CRLF-ended; a field holding a comma, a quote or a line break is quoted, its
 * quotes doubled. null and undefined are empty fields.
 *
 * Columns are typed, because a spreadsheet runs a cell that starts like a formula (OWASP, CSV
 * injection) and only the writer knows which cells are data it computed: a `number` cell is written
 * as JSON writes the number (a bet of `-150` stays a number a spreadsheet can sum), while every
 * `text` cell, and anything that is not a number, goes through `neutraliseCell`. Guessing from the
 * content instead would either leave `-2+3` live or turn real amounts into text.
 */
export type CsvCellKind = 'text' | 'number';

/** The columns in order, each with what its cells hold. */
export type CsvColumns = Readonly<Record<string, CsvCellKind>>;

/** A cell that starts with one of these control characters: a spreadsheet may drop it and read on. */
const CONTROL_START = /^[\t\r\n]/;
/**
 * The signs that start a formula (OWASP, CSV injection), as NFKC writes them: the full-width
 * `＝ ＋ － ＠` and the small `﹦ ﹢ ﹣ ﹫` normalise to these, and some spreadsheets read them so.
 */
const FORMULA_SIGNS: ReadonlySet<string> = new Set(['=', '+', '-', '@']);

/**
 * Whether a spreadsheet might read the text as a formula: it starts with a tab, a carriage return
 * or a line feed, or its first character after any blanks (spaces, tabs, line breaks, any Unicode
 * white space, which some spreadsheets strip) is a formula sign in any width.
 */
export function startsLikeFormula(text: string): boolean {
  if (CONTROL_START.test(text)) return true;
  const first = text.trimStart().codePointAt(0);
  return first !== undefined && FORMULA_SIGNS.has(String.fromCodePoint(first).normalize('NFKC'));
}

/**
 * A text cell made inert: one that starts like a formula (`startsLikeFormula`) gets a single quote
 * in front (the spreadsheet then shows it as text; stripping that one quote gives the original
 * back); any other text is left as it is.
 */
export const neutraliseCell = (text: string): string => (startsLikeFormula(text) ? `'${text}` : text);

/** Whether a cell was neutralised, so it must stay quoted as OWASP asks. */
const isNeutralised = (field: string, original: string) => field.length !== original.length;

export function toCsv(columns: CsvColumns, rows: readonly Record<string, unknown>[]): string {
  return csvHeader(columns) + csvLines(columns, rows);
}

/**
 * Several tables in one file, each with its header line, a blank line between them: for an answer
 * that is more than one list (a PAR sheet's figures, levels and ranges).
 */
export const toCsvTables = (
  tables: ReadonlyArray<{ columns: CsvColumns; rows: readonly Record<string, unknown>[] }>,
) => tables.map(({ columns, rows }) => toCsv(columns, rows)).join('\r\n');

/** The header line alone (a streamed export writes it first, then csvLines batch by batch). */
export const csvHeader = (columns: CsvColumns): string =>
  `${Object.keys(columns)
    .map((name) => textField(name))
    .join(',')}\r\n`;

/** The lines of some rows, without the header. */
export function csvLines(columns: CsvColumns, rows: readonly Record<string, unknown>[]): string {
  const kinds = Object.entries(columns);
  return rows
    .map((row) => `${kinds.map(([name, kind]) => csvField(row[name], kind)).join(',')}\r\n`)
    .join('');
}

function csvField(value: unknown, kind: CsvCellKind): string {
  if (value === null || value === undefined) return '';
  if (kind === 'number' && typeof value === 'number') return quoteIfNeeded(JSON.stringify(value));
  // A text column, or a number column handed something else: text, so it is neutralised.
  return textField(typeof value === 'string' ? value : JSON.stringify(value));
}

function textField(text: string): string {
  const field = neutraliseCell(text);
  return isNeutralised(field, text) ? quote(field) : quoteIfNeeded(field);
}

const quote = (text: string) => `"${text.replaceAll('"', '""')}"`;
const quoteIfNeeded = (text: string) => (/[",\r\n]/.test(text) ? quote(text) : text);
