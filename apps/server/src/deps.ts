import type { RateLimitOverrides } from './http/rate-limits.ts';
import type { Logger } from './logger.ts';
import type { Mailer } from './mail/mailer.ts';
import type { PasswordHasher } from './security/passwords.ts';
import type { SecretBox } from './security/secrets.ts';
import type { Store } from './store/store.ts';

/** Settings the services read; main.ts derives them from the validated configuration. */
export interface Settings {
  publicUrl: string;
  tokenTtlSeconds: number;
  /** Where password-reset links point (the panel's reset page). */
  panelUrl: string;
  allowPrivateWebhooks: boolean;
  /** Express `trust proxy` value, when behind a reverse proxy. */
  trustProxy?: string | number | boolean;
  /** Changes to the /auth rate limits (http/rate-limits.ts); tests shrink or widen them. */
  rateLimits?: RateLimitOverrides;
}

/**
 * What varies at the edges, injected so tests drive it: the store, the clock, ids and
 * randomness, secrets, password hashing, mail and logs.
 */
export interface Deps {
  store: Store;
  clock: () => Date;
  newId: () => string;
  random: (bytes: number) => Buffer;
  secrets: SecretBox;
  passwords: PasswordHasher;
  mailer: Mailer;
  logger: Logger;
  settings: Settings;
}

export const isoNow = (deps: Pick<Deps, 'clock'>) => deps.clock().toISOString();
export const isoIn = (deps: Pick<Deps, 'clock'>, seconds: number) =>
  new Date(deps.clock().getTime() + seconds * 1000).toISOString();
