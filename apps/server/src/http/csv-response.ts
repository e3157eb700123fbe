import type { Response } from 'express';

/**
 * Answers a CSV file (written by @raspa/core's csv.ts) as a download; the handler then returns nothing
 * (route.ts sends no JSON after it).
 */
export function sendCsv(response: Response, name: string, text: string): never {
  response
    .status(200)
    .type('text/csv; charset=utf-8')
    .set('Content-Disposition', `attachment; filename="${name}.csv"`)
    .send(text);
  return undefined as never;
}
