/**
 * CSV (RFC 4180) of flat rows, for the lists' and the report's `format=csv`: a header line, then
 * one line per row, CRLF-ended; a field holding a comma, a quote or a line break is quoted, its
 * quotes doubled. null and undefined are empty fields; numbers as JSON writes them.
 */
export function toCsv(columns: readonly string[], rows: readonly Record<string, unknown>[]): string {
  return csvHeader(columns) + csvLines(columns, rows);
}

/** The header line alone (a streamed export writes it first, then csvLines batch by batch). */
export const csvHeader = (columns: readonly string[]): string => `${columns.map(csvField).join(',')}\r\n`;

/** The lines of some rows, without the header. */
export function csvLines(columns: readonly string[], rows: readonly Record<string, unknown>[]): string {
  return rows.map((row) => `${columns.map((column) => csvField(row[column])).join(',')}\r\n`).join('');
}

function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
