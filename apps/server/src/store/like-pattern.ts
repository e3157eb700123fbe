/** A LIKE pattern (ESCAPE '\') matching any text that contains `text`: `%`, `_` and `\` match literally. */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}
