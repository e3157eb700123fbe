/**
 * CSV (RFC 4180) of flat rows, for the lists' and the report's `format=csv`: a header line, then
 * one line per row, CRLF-ended; a field holding a comma, a quote or a line break is quoted, its
 * quotes doubled. null and undefined are empty fields; numbers as JSON writes them.
 */
export function toCsv(columns: readonly string[], rows: readonly Record<string, unknown>[]): string {
  const lines = [columns.map(csvField), ...rows.map((row) => columns.map((column) => csvField(row[column])))];
  return lines.map((fields) => `${fields.join(',')}\r\n`).join('');
}

function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
