import type { Deps } from '../deps.ts';

// Not written yet: filled in by the work on its routes.
export function createListService(_deps: Deps) {
  return {};
}
