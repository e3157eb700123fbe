import type { RequestHandler } from 'express';
import type { Deps } from '../deps.ts';

/** Rate limits of the /auth routes (CONTRACT §2). Not written yet: comes with the panel-auth work. */
export interface RateLimits {
  login: RequestHandler[];
  panelLogin: RequestHandler[];
  forgotPassword: RequestHandler[];
  resetPassword: RequestHandler[];
  changePassword: RequestHandler[];
}

export function createRateLimits(_deps: Deps): RateLimits {
  return { login: [], panelLogin: [], forgotPassword: [], resetPassword: [], changePassword: [] };
}
