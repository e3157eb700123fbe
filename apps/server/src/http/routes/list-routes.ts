import type { RouteDefinition } from '../route.ts';
import type { RouteKit } from '../route-kit.ts';

// Not written yet: filled in by the work on these operations.
export function listRoutes(_kit: RouteKit): RouteDefinition[] {
  return [];
}
