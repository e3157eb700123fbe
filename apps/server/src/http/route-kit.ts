import type { Deps } from '../deps.ts';
import type { Services } from '../services/services.ts';
import type { RateLimits } from './rate-limits.ts';

/** What a route module gets: the services to call, the rate limits to put in front, and the settings. */
export interface RouteKit {
  services: Services;
  limits: RateLimits;
  settings: Deps['settings'];
}
