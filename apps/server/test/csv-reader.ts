/**
 * An RFC 4180 reader written apart from the service's writer (packages/core/src/csv/csv.ts), so tests check the
 * format, not the writer against itself: records end in CRLF, quoted fields may hold commas,
 * line breaks and doubled quotes.
 */
export function readCsvRecords(text: string): string[][] {
  const records: string[][] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      fields.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      fields.push(field);
      records.push(fields);
      fields = [];
      field = '';
      i++;
    } else field += char;
  }
  return records;
}
