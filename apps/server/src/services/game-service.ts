import type { Deps } from '../deps.ts';

// Not written yet: filled in by the work on its routes.
export function createGameService(_deps: Deps) {
  return {};
}
