import type { AnchorSigningKey } from '@raspa/core/audit';
import type { Clock } from './clock.ts';
import type { RateLimitOverrides } from './config.ts';
import type { Logger } from './logger.ts';
import type { Mailer } from './mail/mailer.ts';
import type { Metrics } from './ops/metrics.ts';
import type { HostLookup } from './outbound/host-resolution.ts';
import type { CaptchaSettings } from './security/altcha-captcha.ts';
import type { CaptchaVerifier } from './security/captcha-verifier.ts';
import type { PasswordHasher } from './security/passwords.ts';
import type { SecretBox } from './security/secrets.ts';
import type { Store } from './store/store.ts';

/** Settings the services read; main.ts derives them from the validated configuration. */
export interface Settings {
  publicUrl: string;
  tokenTtlSeconds: number;
  /** How long a round's replay link stays readable; default SETTING_DEFAULTS.REPLAY_TTL (15 min). */
  replayTtlSeconds?: number;
  /** Where password-reset links point (the panel's reset page). */
  panelUrl: string;
  /**
   * Webhooks and wallets may point at loopback, private, link-local… addresses (local
   * integration only); off by default (OUTBOUND_ALLOW_PRIVATE).
   */
  allowPrivateOutbound: boolean;
  /** Timings of the play loop; tests shorten them. */
  play?: PlaySettings;
  /** Express `trust proxy` value, when behind a reverse proxy. */
  trustProxy?: string | number | boolean;
  /** Changes to the /auth rate limits (http/rate-limits.ts); tests shrink or widen them. */
  rateLimits?: RateLimitOverrides;
  /** ALTCHA's difficulty and lifetime (security/altcha-captcha.ts ALTCHA_DEFAULTS); tests make it easy. */
  captcha?: Partial<CaptchaSettings>;
  /** When set, GET /metrics wants `Authorization: Bearer <it>`; unset, /metrics is open. */
  metricsToken?: string;
  /** The audit anchors' timing (docs/audit.md); tests shorten or stop it. */
  audit?: AuditSettings;
}

export interface AuditSettings {
  /** Between two passes of the anchoring job (AUDIT_ANCHOR_SECONDS); 0: no timer (tests run passes by hand). */
  anchorEveryMs: number;
  /** Records younger than this wait for the next anchor (anchor-writer.ts). */
  settleMs?: number;
}

export interface PlaySettings {
  /** Time-out of one wallet call (docs/contract.md §6: 5 s). */
  walletTimeoutMs?: number;
  /** A round with no action for this long closes by itself (5 minutes). */
  roundIdleMs?: number;
  /** Delays between wallet retries. */
  walletRetryDelaysMs?: number[];
  /** How long a prize is retried before its round is flagged for reconciliation (24 h). */
  prizeGiveUpMs?: number;
  /** How long an unanswered call is left to its sender before the retrier takes it over. */
  walletInFlightMs?: number;
  /** Delays between webhook retries (docs/contract.md §7). */
  webhookScheduleMs?: number[];
  /** Time-out of one webhook delivery (15 s). */
  webhookTimeoutMs?: number;
  /** Deliveries in flight per webhook (32). */
  webhookInFlight?: number;
  /** How often the loop looks for due retries and idle rounds. */
  tickMs?: number;
  /** Draw indexes taken from a pool at a time (POOL_BLOCK_SIZE). */
  poolBlockSize?: number;
  /** How long a block of draw indexes stays this process's without being renewed. */
  poolBlockLeaseMs?: number;
}

/**
 * What varies at the edges, injected so tests drive it: the store, the clock, ids and
 * randomness, secrets, password hashing, mail, logs, metrics and DNS.
 */
export interface Deps {
  store: Store;
  clock: Clock;
  newId: () => string;
  random: (bytes: number) => Buffer;
  secrets: SecretBox;
  passwords: PasswordHasher;
  mailer: Mailer;
  logger: Logger;
  /** This instance's Prometheus registry and instruments (never the global registry). */
  metrics: Metrics;
  settings: Settings;
  /** DNS for the outbound address policy: registration checks and every outbound connection. */
  resolveHost: HostLookup;
  /**
   * The captcha of panel-login and forgot-password; unset, ALTCHA (security/altcha-captcha.ts). An
   * embedder plugs a hosted one (Turnstile, hCaptcha) here: docs/contract.md, "Plugging another captcha".
   */
  captcha?: CaptchaVerifier;
  /** The key that signs audit anchors (docs/audit.md); unset, no anchors are written. */
  auditKey?: AnchorSigningKey;
}
