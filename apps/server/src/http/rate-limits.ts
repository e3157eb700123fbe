import type { RequestHandler } from 'express';
import {
  type ClientRateLimitInfo,
  ipKeyGenerator,
  MINUTE,
  type Options,
  type RateLimitInfo,
  type RateLimitRequestHandler,
  rateLimit,
  type Store,
} from 'express-rate-limit';
import {
  DEFAULT_RATE_LIMITS,
  type RateLimitName,
  type RateLimitOverrides,
  type RateLimitPolicy,
} from '../config.ts';
import type { Deps } from '../deps.ts';
import { digest } from '../security/secrets.ts';
import { ApiError } from '../services/api-error.ts';
import type { RateLimitsRepo } from '../store/repositories.ts';

/** The middleware put in front of each /auth route (docs/contract.md §2: 429 with standard headers). */
export interface RateLimits {
  captcha: RequestHandler[];
  login: RequestHandler[];
  panelLogin: RequestHandler[];
  forgotPassword: RequestHandler[];
  resetPassword: RequestHandler[];
  changePassword: RequestHandler[];
}

/**
 * An express-rate-limit Store over the database's counters, so every process of an installation
 * counts the same hits (the library's MemoryStore counts per process). It counts on the injected
 * clock, so tests move windows with `clock.advance`. With `slide`, each counted hit up to the limit
 * restarts the window: a lock-out lasts a full window after the hit that reached the limit.
 * Expired counters are swept as it goes, with no timer.
 */
export function createCountersStore(
  counters: RateLimitsRepo,
  clock: () => Date,
  options: { name: string; slide?: boolean },
): Store {
  // The limiter's name keeps its keys apart from the other limiters' in the shared table.
  const prefix = `${options.name}:`;
  let windowMs = MINUTE;
  let limit = Number.POSITIVE_INFINITY;
  let operations = 0;
  // The library measures RateLimit/Retry-After against Date.now(): report reset times on that clock.
  const report = (counter: { hits: number; resetAt: number }, now: number): ClientRateLimitInfo => ({
    totalHits: counter.hits,
    resetTime: new Date(Date.now() + (counter.resetAt - now)),
  });
  return {
    init(configured) {
      windowMs = configured.windowMs;
      if (typeof configured.limit === 'number') limit = configured.limit;
    },
    async get(key) {
      const now = clock().getTime();
      const counter = await counters.find(prefix + key, now);
      return counter && report(counter, now);
    },
    async increment(key) {
      const now = clock().getTime();
      if (++operations % 1000 === 0) await counters.deleteExpired(now);
      const counter = await counters.hit(prefix + key, now, windowMs, options.slide ? limit : undefined);
      return report(counter, now);
    },
    decrement: (key) => counters.decrement(prefix + key),
    resetKey: (key) => counters.reset(prefix + key),
    resetAll: () => counters.resetPrefix(prefix),
  };
}

type Body = Record<string, unknown> | undefined;

/** The credential of a body, when it has one worth counting (validation answers the rest with 400). */
const textField = (body: Body, field: string, normalise: (text: string) => string = (text) => text) => {
  const value = body?.[field];
  return typeof value === 'string' && value.trim() !== '' && value.length <= 1024
    ? normalise(value)
    : undefined;
};
const apiKeyOf = (body: Body) => textField(body, 'apiKey');
const emailOf = (body: Body) => textField(body, 'email', (email) => email.trim().toLowerCase());

/**
 * Builds the limiters. Each has its own store (the library refuses a shared one), counts on
 * `deps.clock`, answers 429 through the error middleware (our envelope) and sends the draft-8
 * `RateLimit`/`RateLimit-Policy` headers plus `Retry-After`. Keys never hold a secret in the clear.
 */
export function createRateLimits(
  deps: Deps,
  overrides: RateLimitOverrides = deps.settings.rateLimits ?? {},
): RateLimits {
  const policy = (name: RateLimitName): RateLimitPolicy => ({
    ...DEFAULT_RATE_LIMITS[name],
    ...overrides[name],
  });
  const limiter = (
    name: RateLimitName,
    refusal: string,
    options: Partial<Options> = {},
    storeOptions: { slide?: boolean } = {},
  ): RateLimitRequestHandler =>
    rateLimit({
      ...policy(name),
      standardHeaders: 'draft-8',
      legacyHeaders: false,
      identifier: name,
      store: createCountersStore(deps.store.rateLimits, deps.clock, { name, ...storeOptions }),
      logger: {
        error: (error, message) => deps.logger.error(message ?? 'rate limiter', { error: String(error) }),
        warn: (error, message) => deps.logger.warn(message ?? 'rate limiter', { error: String(error) }),
      },
      handler: (_request, response, next) => {
        const seconds = String(response.getHeader('Retry-After') ?? '');
        next(new ApiError('RATE_LIMITED', `${refusal}; try again in ${seconds} seconds`));
      },
      ...options,
    });

  const perIp = (name: RateLimitName) => limiter(name, 'too many requests from this address');

  /** Counts 401 answers per (credential, IP); a success forgets the count. */
  const failures = (
    name: RateLimitName,
    credentialOf: (body: Body) => string | undefined,
  ): RequestHandler[] => {
    const property = 'credentialRateLimit';
    const counter = limiter(
      name,
      'too many failed attempts for this account from this address',
      {
        requestPropertyName: property,
        skip: (request) => credentialOf(request.body) === undefined,
        keyGenerator: (request) =>
          `${digest(credentialOf(request.body) ?? '')}|${ipKeyGenerator(request.ip ?? '')}`,
        skipSuccessfulRequests: true,
        // "successful" here means "not a failed credential": everything else is uncounted again.
        requestWasSuccessful: (_request, response) => response.statusCode !== 401,
      },
      { slide: true },
    );
    const forgetOnSuccess: RequestHandler = (request, response, next) => {
      response.once('finish', () => {
        const info = (request as unknown as Record<string, RateLimitInfo | undefined>)[property];
        if (info && response.statusCode < 300) {
          void Promise.resolve(counter.resetKey(info.key)).catch((error: unknown) =>
            deps.logger.warn('could not reset a rate-limit counter', { error: String(error) }),
          );
        }
      });
      next();
    };
    return [counter, forgetOnSuccess];
  };

  const perEmail = limiter('forgotPasswordPerEmail', 'too many password-reset requests for this e-mail', {
    requestPropertyName: 'emailRateLimit',
    skip: (request) => emailOf(request.body) === undefined,
    keyGenerator: (request) => digest(emailOf(request.body) ?? ''),
    skipFailedRequests: true,
  });

  return {
    captcha: [perIp('captcha')],
    login: [perIp('loginPerIp'), ...failures('loginFailures', apiKeyOf)],
    panelLogin: [perIp('panelLoginPerIp'), ...failures('panelLoginFailures', emailOf)],
    forgotPassword: [perIp('forgotPasswordPerIp'), perEmail],
    resetPassword: [perIp('resetPasswordPerIp')],
    changePassword: [perIp('changePasswordPerIp')],
  };
}
