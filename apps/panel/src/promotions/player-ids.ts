/**
 * Players' ids for a promotion, from text pasted or a text/CSV file read: one id per line, in a CSV
 * the first column (quoted or not; a header line such as `userId` is skipped). Pure, so every rule is
 * tested here and the form only shows the outcome before anything is sent.
 */

/** The service's id rule (schemas/common.ts `id`): 1 to 100 characters once trimmed. */
export const PLAYER_ID_MAX_LENGTH = 100;

/** First-column names a CSV export may put on its first line. */
const HEADER_NAMES = new Set(['userid', 'user_id', 'user', 'id', '_id', 'playerid', 'player_id', 'player']);

export type PlayerIdProblemReason = 'too-long' | 'spaces' | 'empty-id' | 'unclosed-quote';

export interface PlayerIdProblem {
  /** 1-based, as an editor numbers lines. */
  line: number;
  /** The line as it came (cut to 60 characters), to show. */
  text: string;
  reason: PlayerIdProblemReason;
}

export interface ParsedPlayerIds {
  /** The distinct ids, in first-seen order. */
  ids: string[];
  /** Lines that named an id already listed (the service would keep it once anyway). */
  repeats: number;
  /** Empty lines, left out. */
  blanks: number;
  /** Whether the first line was taken for a CSV header and left out. */
  header: boolean;
  /** Lines that hold no usable id: nothing is sent while there are any. */
  problems: PlayerIdProblem[];
}

/** The first field of a CSV line (`,`, `;` or a tab between fields), unquoted; undefined for an unclosed quote. */
export function firstField(line: string): string | undefined {
  const text = line.trimStart();
  if (!text.startsWith('"')) return /^[^,;\t]*/.exec(text)?.[0] ?? '';
  let value = '';
  for (let index = 1; index < text.length; index++) {
    const char = text[index];
    if (char !== '"') {
      value += char;
      continue;
    }
    if (text[index + 1] === '"') {
      value += '"';
      index++;
      continue;
    }
    return value;
  }
  return undefined;
}

/** A line's id, or why it holds none. */
function readId(line: string): string | { reason: PlayerIdProblemReason } {
  const field = firstField(line);
  if (field === undefined) return { reason: 'unclosed-quote' };
  const id = field.trim();
  if (id === '') return { reason: 'empty-id' };
  if (/\s/.test(id)) return { reason: 'spaces' };
  if (id.length > PLAYER_ID_MAX_LENGTH) return { reason: 'too-long' };
  return id;
}

export function parsePlayerIds(text: string): ParsedPlayerIds {
  // A file saved on Windows starts with a byte-order mark and ends lines with CR LF.
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  const seen = new Set<string>();
  const result: ParsedPlayerIds = { ids: [], repeats: 0, blanks: 0, header: false, problems: [] };
  lines.forEach((line, index) => {
    if (line.trim() === '') {
      // The newline that ends the last line is not a blank line.
      if (index < lines.length - 1) result.blanks++;
      return;
    }
    const read = readId(line);
    if (typeof read !== 'string') {
      const text = line.length > 60 ? `${line.slice(0, 59)}…` : line;
      result.problems.push({ line: index + 1, text, reason: read.reason });
      return;
    }
    const id = read;
    if (index === 0 && HEADER_NAMES.has(id.toLowerCase())) {
      result.header = true;
      return;
    }
    if (seen.has(id)) {
      result.repeats++;
      return;
    }
    seen.add(id);
    result.ids.push(id);
  });
  return result;
}

/** The ids cut into calls of at most `size` (the service takes 10,000 players per call). */
export function inBatches<T>(items: readonly T[], size: number): T[][] {
  if (!Number.isInteger(size) || size < 1)
    throw new RangeError(`batch size must be a positive integer, not ${size}`);
  const batches: T[][] = [];
  for (let start = 0; start < items.length; start += size) batches.push(items.slice(start, start + size));
  return batches;
}
