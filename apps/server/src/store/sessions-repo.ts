import type { Db } from './database.ts';

// Not written yet: filled in by the work on its routes.
// biome-ignore lint/suspicious/noEmptyInterface: placeholder until its routes land
export interface SessionsRepo {}

export function createSessionsRepo(_db: Db): SessionsRepo {
  return {};
}
