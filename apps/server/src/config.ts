import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { signingKeyFromSeed } from '@raspa/core/audit';
import { z } from 'zod';
import { decidePrivateOutbound, type PrivateOutbound } from './outbound/private-outbound-default.ts';
import { parseDatabaseHosts } from './store/postgres/database-hosts.ts';

/** Seconds in "7200", "45s", "30m", "2h" or "1d". */
export function durationSeconds(text: string): number {
  const value = Number.parseInt(text, 10);
  const unit = text.trim().slice(-1);
  const scale = unit === 'm' ? 60 : unit === 'h' ? 3600 : unit === 'd' ? 86_400 : 1;
  return value * scale;
}

/** Milliseconds of each step of "5s,5m,30m", a schedule of durations. */
export const scheduleMs = (text: string): number[] =>
  text.split(',').map((step) => durationSeconds(step) * 1000);

/**
 * The defaults of the settings that modules also fall back on when a test or an embedder builds
 * them without a configuration: kept here, once, beside the schema that applies them.
 */
export const SETTING_DEFAULTS = {
  WALLET_TIMEOUT_MS: 5000,
  ROUND_IDLE_TIMEOUT: 300,
  WEBHOOK_RETRY_SCHEDULE: '5s,5m,30m,2h,5h,10h,10h',
  WEBHOOK_IN_FLIGHT: 256,
  /** Draw indexes a process takes from a pool at a time (docs/store.md, "Ticket draws by blocks"). */
  POOL_BLOCK_SIZE: 100,
  /** Seconds a block of draw indexes stays its process's unless renewed; then another may take it over. */
  POOL_BLOCK_LEASE: 30,
  /** Seconds a round's replay link (POST /v1/round/{roundId}/replay) stays readable. */
  REPLAY_TTL: 900,
  /**
   * Seconds a stop (SIGTERM) waits for the requests in flight before answering the rest
   * SERVICE_STOPPING; the process exits at most STOP_EXIT_GRACE_SECONDS after that.
   */
  STOP_TIMEOUT: 30,
  /** Seconds between a client's audit anchors (docs/audit.md). */
  AUDIT_ANCHOR_SECONDS: 60,
} as const;

/**
 * Seconds a stopping process gives its background work (retries, webhook deliveries in flight) after
 * STOP_TIMEOUT before it exits anyway (exit code 1): what they had begun is leased in the database.
 */
export const STOP_EXIT_GRACE_SECONDS = 10;

/** The back office's page that password-reset links open by default (PANEL_URL overrides it). */
export const PANEL_RESET_PATH = '/panel/reset-password';

/** Reads a duration: seconds ("7200") or a number with a unit ("2h", "30m", "45s"). */
const duration = z
  .string()
  .regex(/^\d+\s*[smhd]?$/, 'must be seconds or a number with s, m, h or d, e.g. 2h')
  .transform(durationSeconds)
  .refine((seconds) => seconds >= 60, 'must be at least 60 seconds');

/** A short duration, 1 s to 10 min: seconds ("30") or a number with a unit ("45s", "2m"). */
const shortDuration = z
  .string()
  .regex(/^\d+\s*[sm]?$/, 'must be seconds or a number with s or m, e.g. 30s')
  .transform(durationSeconds)
  .refine((seconds) => seconds >= 1 && seconds <= 600, 'must be between 1 second and 10 minutes');

const flag = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

/** Every setting comes from the environment (or `.env`); this is the only file that reads it. */
export const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  /**
   * postgres://user:password@host:port/database: the service keeps its data in that PostgreSQL
   * database (docs/store.md); unset, in the embedded SQLite file DATA_DIR/raspa.sqlite. Several
   * servers, in libpq's syntax, for a primary and its standbys: `postgres://u@db1,db2/raspa
   * ?target_session_attrs=read-write` (store/postgres/database-hosts.ts, docs/operating.md "Failover").
   */
  DATABASE_URL: z
    .string()
    .check((context) => {
      const hosts = parseDatabaseHosts(context.value);
      if ('error' in hosts)
        context.issues.push({ code: 'custom', message: hosts.error, input: context.value });
    })
    .optional(),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  TOKEN_TTL: duration.default(7200),
  /** How long a round's replay link for customer support stays readable (docs/contract.md §11). */
  REPLAY_TTL: duration.default(SETTING_DEFAULTS.REPLAY_TTL),
  /** smtp://user:pass@host:port or smtps://…; unset: e-mails are written to DATA_DIR/outbox. */
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  MAIL_FROM: z.string().min(3).default('Raspa <no-reply@raspa.local>'),
  /** The page reset links point at; default: the back office's, PUBLIC_URL + PANEL_RESET_PATH. */
  PANEL_URL: z.url({ protocol: /^https?$/ }).optional(),
  DEMO_API_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
  /** 64 hex characters; unset: one is generated once and kept in DATA_DIR/secret.key. */
  SECRET_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters')
    .optional(),
  /**
   * Base64 of the 32-byte Ed25519 seed that signs the audit anchors (docs/audit.md); unset: one is
   * generated once and kept in DATA_DIR/audit-signing.key. The message never repeats the value.
   */
  AUDIT_SIGNING_KEY: z
    .string()
    .refine((text) => signingKeyFromSeed(text) !== null, 'must be the base64 of a 32-byte Ed25519 seed')
    .optional(),
  /** Seconds between a client's audit anchors. */
  AUDIT_ANCHOR_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(86_400)
    .default(SETTING_DEFAULTS.AUDIT_ANCHOR_SECONDS),
  /**
   * Let webhooks and wallets point at loopback, private, link-local… addresses: only for local
   * integration (a receiver or wallet on your machine or LAN), never in production.
   */
  OUTBOUND_ALLOW_PRIVATE: flag.optional(),
  /** The old name of OUTBOUND_ALLOW_PRIVATE, still read; OUTBOUND_ALLOW_PRIVATE wins when both are set. */
  ALLOW_PRIVATE_WEBHOOKS: flag.optional(),
  /** Express `trust proxy`: set it (e.g. `1` or `loopback`) behind a reverse proxy so rate limits see client IPs. */
  TRUST_PROXY: z.string().optional(),
  /** Time-out of one call to an operator's wallet, in milliseconds (docs/contract.md §6). */
  /**
   * Processes serving players and the API on PORT (Node's cluster; they share the database, which
   * leases their background work); default: `defaultWorkers`. 1 keeps one process.
   */
  WORKERS: z.coerce.number().int().min(1).max(64).optional(),
  WALLET_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(SETTING_DEFAULTS.WALLET_TIMEOUT_MS),
  /**
   * How long a stop (SIGTERM) waits for the play requests in flight (buys and reveals with their
   * wallet calls) before answering the rest SERVICE_STOPPING (docs/operating.md, "Stopping").
   */
  STOP_TIMEOUT: shortDuration.default(SETTING_DEFAULTS.STOP_TIMEOUT),
  /** A round with no action for this long closes by itself. */
  ROUND_IDLE_TIMEOUT: duration.default(SETTING_DEFAULTS.ROUND_IDLE_TIMEOUT),
  /** Webhook retry delays, comma-separated durations (docs/contract.md §7). */
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .regex(
      /^\s*\d+\s*[smhd]?\s*(,\s*\d+\s*[smhd]?\s*)*$/,
      'must be durations separated by commas, e.g. 5s,5m,30m',
    )
    .default(SETTING_DEFAULTS.WEBHOOK_RETRY_SCHEDULE),
  /**
   * Deliveries in flight per webhook once its receiver answers 2xx, each on its own connection;
   * 1 = strictly one at a time, in order.
   */
  WEBHOOK_IN_FLIGHT: z.coerce.number().int().min(1).max(256).default(SETTING_DEFAULTS.WEBHOOK_IN_FLIGHT),
  /** Draw indexes a process takes from a pool at a time (docs/store.md); 1 takes one per draw. */
  POOL_BLOCK_SIZE: z.coerce.number().int().min(1).max(10_000).default(SETTING_DEFAULTS.POOL_BLOCK_SIZE),
  /** Seconds a process's block of draw indexes outlives the process (docs/store.md). */
  POOL_BLOCK_LEASE: z.coerce.number().int().min(5).max(600).default(SETTING_DEFAULTS.POOL_BLOCK_LEASE),
  /** When set, GET /metrics wants `Authorization: Bearer <it>`; unset, /metrics is open (bind to 127.0.0.1 or firewall it). */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /**
   * Connections of each process's pool to DATABASE_URL (docs/benchmarks.md, "Sizing the pool"):
   * units wait for one when all are busy.
   */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /**
   * PostgreSQL: the lists' totals from per-day counts folded off the round's path (exact for any
   * order of writes: docs/store.md, "The lists' totals on PostgreSQL"). On unless false, which
   * counts the rows instead (about 1 s a total on a million rounds).
   */
  LEDGER_COUNT_FOLD: flag.optional(),
  /**
   * Diagnostics (SQLite): counts every SQL statement and writes the counts to this path plus the
   * process id at exit and on SIGUSR2 (store/sqlite/statement-stats.ts; `bench:play --statements`).
   * On PostgreSQL: its round trips, statements sent, units and waits for a connection
   * (store/postgres/round-trips.ts).
   */
  STATEMENT_STATS: z.string().min(1).optional(),
});

/**
 * WORKERS unset: one process on the embedded file, where a second one takes turns on the same write
 * lock and sustained fewer rounds for more CPU per round (docs/operating.md, "Several processes on
 * one machine"); one per core (at most 64) on PostgreSQL, whose instances write at once.
 */
export const defaultWorkers = (databaseUrl: string | undefined): number =>
  databaseUrl ? Math.min(64, availableParallelism()) : 1;

export type Config = Omit<
  z.infer<typeof envSchema>,
  'PUBLIC_URL' | 'DATA_DIR' | 'OUTBOUND_ALLOW_PRIVATE' | 'ALLOW_PRIVATE_WEBHOOKS' | 'WORKERS'
> & {
  WORKERS: number;
  PUBLIC_URL: string;
  DATA_DIR: string;
  /**
   * OUTBOUND_ALLOW_PRIVATE (or its old name) when set; unset, on only for the local start while
   * HOST is loopback (outbound/private-outbound-default.ts).
   */
  OUTBOUND_ALLOW_PRIVATE: boolean;
  /** Why OUTBOUND_ALLOW_PRIVATE is what it is, for the start's notice. */
  privateOutbound: PrivateOutbound;
};

export type ConfigResult = { ok: true; config: Config } | { ok: false; errors: string[] };

export interface StartKind {
  /**
   * The local demo and integration start (`npm start`, `pnpm serve`: main.ts --local), which allows
   * private outbound addresses by default while it listens on loopback only.
   */
  localStart?: boolean;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env, start: StartKind = {}): ConfigResult {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    return {
      ok: false,
      errors: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`),
    };
  }
  const { ALLOW_PRIVATE_WEBHOOKS, ...values } = parsed.data;
  const host = values.HOST === '0.0.0.0' || values.HOST === '::' ? '127.0.0.1' : values.HOST;
  const privateOutbound = decidePrivateOutbound({
    host: values.HOST,
    setting: values.OUTBOUND_ALLOW_PRIVATE ?? ALLOW_PRIVATE_WEBHOOKS,
    localStart: start.localStart ?? false,
  });
  return {
    ok: true,
    config: {
      ...values,
      WORKERS: values.WORKERS ?? defaultWorkers(values.DATABASE_URL),
      DATA_DIR: resolve(values.DATA_DIR),
      OUTBOUND_ALLOW_PRIVATE: privateOutbound.allow,
      privateOutbound,
      PUBLIC_URL: (values.PUBLIC_URL ?? `http://${host}:${values.PORT}`).replace(/\/+$/, ''),
    },
  };
}

/** Loads `.env` from the working directory, if there is one, without overriding the environment. */
export function loadDotEnv(file = '.env'): void {
  if (existsSync(file)) process.loadEnvFile(file);
}

// ---- /auth rate limits (docs/contract.md §2); not environment settings: tests and embedders change
// them through Settings.rateLimits.

export interface RateLimitPolicy {
  limit: number;
  windowMs: number;
}

/**
 * The thresholds (the spec leaves them "not shown"). Per IP: every request counts. Failures: only
 * 401 answers count, per (credential digest, IP); the 10th failure in a row locks that pair for
 * 15 minutes, a success forgets the count, other credentials from the same IP are not affected.
 * Per e-mail (forgot-password): only accepted requests count, so nobody can flood an inbox.
 */
export const DEFAULT_RATE_LIMITS = {
  captcha: { limit: 30, windowMs: 60_000 },
  loginPerIp: { limit: 60, windowMs: 60_000 },
  loginFailures: { limit: 10, windowMs: 15 * 60_000 },
  panelLoginPerIp: { limit: 20, windowMs: 60_000 },
  panelLoginFailures: { limit: 10, windowMs: 15 * 60_000 },
  forgotPasswordPerIp: { limit: 5, windowMs: 15 * 60_000 },
  forgotPasswordPerEmail: { limit: 5, windowMs: 3_600_000 },
  resetPasswordPerIp: { limit: 10, windowMs: 15 * 60_000 },
  changePasswordPerIp: { limit: 10, windowMs: 15 * 60_000 },
} satisfies Record<string, RateLimitPolicy>;

export type RateLimitName = keyof typeof DEFAULT_RATE_LIMITS;
/** Tests (and operators embedding the app) shrink or widen limits through `settings.rateLimits`. */
export type RateLimitOverrides = Partial<Record<RateLimitName, Partial<RateLimitPolicy>>>;
