import { envSchema } from '../config.ts';

/** Whether a production deployment sets a variable. */
type Production = 'required' | 'required with several instances' | 'recommended' | 'optional' | 'never';

interface Entry {
  /** What the default is where the schema's value says too little (computed at start, or a unit). */
  default?: string;
  production: Production;
  meaning: string;
}

export type EnvVariable = keyof typeof envSchema.shape;

/**
 * One line per variable the configuration schema reads (config.ts): typed over the schema's keys,
 * so a variable added there without its line here does not compile, and deploy/environment.md is
 * rendered from it (apps/server/test/deploy.test.ts fails when that file is not up to date).
 */
export const ENV_REFERENCE: Record<EnvVariable, Entry> = {
  PORT: { production: 'optional', meaning: 'the port the service listens on' },
  HOST: {
    production: 'required',
    meaning:
      "the address it listens on: `0.0.0.0` (or the machine's address) behind a load balancer on another host or container",
  },
  DATA_DIR: {
    production: 'recommended',
    meaning:
      "the SQLite file (`raspa.sqlite`), the generated server key and the e-mail outbox: a directory only the service's user reads (the systemd unit gives `/var/lib/raspa`)",
  },
  DATABASE_URL: {
    production: 'required with several instances',
    meaning:
      '`postgres://user:password@host:5432/raspa`: the data in that PostgreSQL database (migrated at start) instead of the SQLite file; any number of instances may share it. A primary and its standbys: `postgres://user:password@db1:5432,db2:5432/raspa?target_session_attrs=read-write` (docs/operating.md, *Failover*)',
  },
  DATABASE_POOL_SIZE: {
    production: 'optional',
    meaning: 'connections of each process to `DATABASE_URL` (docs/benchmarks.md, *On PostgreSQL*)',
  },
  LEDGER_COUNT_FOLD: {
    default: '`true`',
    production: 'optional',
    meaning:
      "PostgreSQL: the lists' totals from per-day counts folded off the round's path; `false` counts the rows instead (docs/store.md)",
  },
  PUBLIC_URL: {
    default: '`http://HOST:PORT`',
    production: 'required',
    meaning:
      "the public address players and integrators reach (the load balancer's): the base of `gameUrl`, `mediaUrl` and links in e-mails",
  },
  TOKEN_TTL: {
    default: '`2h`',
    production: 'optional',
    meaning: 'access-token lifetime (a duration: `7200`, `30m`, `2h`; at least 60 s)',
  },
  REPLAY_TTL: {
    default: '`15m`',
    production: 'optional',
    meaning: "how long a round's replay link stays readable (at least 60 s)",
  },
  SMTP_URL: {
    production: 'recommended',
    meaning:
      '`smtp://user:pass@host:587` or `smtps://…`; unset, e-mails are written as `.eml` files under `DATA_DIR/outbox`',
  },
  MAIL_FROM: { production: 'recommended', meaning: 'sender of e-mails' },
  PANEL_URL: {
    default: '`PUBLIC_URL/panel/reset-password`',
    production: 'optional',
    meaning: 'the page password-reset links open',
  },
  DEMO_API_KEY: {
    production: 'optional',
    meaning: 'on an empty database, the demo client gets this key (16+ characters) instead of a random one',
  },
  SECRET_KEY: {
    default: 'generated once in `DATA_DIR/secret.key`',
    production: 'required with several instances',
    meaning:
      "64 hex characters; seals wallet and webhook tokens and the pools' seeds: every instance on one database needs the same",
  },
  OUTBOUND_ALLOW_PRIVATE: {
    default: '`false` (`npm start` on loopback: `true`)',
    production: 'never',
    meaning:
      '`true` lets wallet and webhook URLs point at loopback and private addresses: for integration on one machine or LAN only',
  },
  ALLOW_PRIVATE_WEBHOOKS: {
    production: 'never',
    meaning: 'the old name of `OUTBOUND_ALLOW_PRIVATE`, still read (the new name wins)',
  },
  TRUST_PROXY: {
    production: 'required with several instances',
    meaning:
      "Express `trust proxy` (e.g. `1` behind one load balancer), so rate limits see the players' addresses",
  },
  WORKERS: {
    default: "1 on the embedded file; the machine's cores (at most 64) with `DATABASE_URL`",
    production: 'optional',
    meaning:
      "processes serving on `PORT` (Node's cluster); `1` keeps one process (docs/operating.md, *Several processes on one machine*)",
  },
  WALLET_TIMEOUT_MS: {
    production: 'optional',
    meaning: "time-out of one call to an operator's wallet, in milliseconds (100–60000)",
  },
  STOP_TIMEOUT: {
    default: '`30s`',
    production: 'optional',
    meaning:
      'how long `SIGTERM` waits for the play requests in flight before answering the rest `SERVICE_STOPPING` (1 s–10 min); the process exits at most 10 s later (docs/operating.md, *Stopping*)',
  },
  ROUND_IDLE_TIMEOUT: {
    default: '`5m`',
    production: 'optional',
    meaning: 'a round with no action closes by itself after this long (its prize is paid)',
  },
  WEBHOOK_RETRY_SCHEDULE: {
    production: 'optional',
    meaning: 'delays between webhook delivery attempts, comma-separated durations',
  },
  WEBHOOK_IN_FLIGHT: {
    production: 'optional',
    meaning:
      'most deliveries in flight per webhook once it answers 2xx: 32, widening to this while the queue is late (docs/webhooks.md; 1: strictly one at a time)',
  },
  POOL_BLOCK_SIZE: {
    production: 'optional',
    meaning: 'draw indexes a process takes from a pool at a time (docs/store.md)',
  },
  POOL_BLOCK_LEASE: {
    production: 'optional',
    meaning: "seconds a process's block of draw indexes outlives the process before another takes it over",
  },
  AUDIT_SIGNING_KEY: {
    default: 'generated once into `DATA_DIR/audit-signing.key` (0600)',
    production: 'required with several instances',
    meaning:
      'base64 of a 32-byte Ed25519 seed that signs the audit anchors; a malformed one stops the start, and it is never logged; give every instance the same (docs/audit.md)',
  },
  AUDIT_ANCHOR_SECONDS: {
    production: 'optional',
    meaning: "seconds between a client's signed audit anchors (docs/audit.md)",
  },
  METRICS_TOKEN: {
    production: 'recommended',
    meaning:
      '16+ characters: `GET /metrics` then wants `Authorization: Bearer <METRICS_TOKEN>`; unset, it is open to whoever reaches the port',
  },
  LOG_LEVEL: { production: 'optional', meaning: '`debug`, `info`, `warn`, `error` or `silent`' },
  STATEMENT_STATS: {
    production: 'never',
    meaning:
      'diagnostics: a path; each process writes its SQL statement counts there at exit and on `SIGUSR2`',
  },
};

/** The schema's default of a variable, as the environment would spell it; undefined when it has none. */
function schemaDefault(name: EnvVariable): string | undefined {
  const parsed = envSchema.shape[name].safeParse(undefined);
  return parsed.success && parsed.data !== undefined ? `\`${String(parsed.data)}\`` : undefined;
}

/** deploy/environment.md: every variable, its default, whether production needs it, what it does. */
export function renderEnvironmentReference(): string {
  const rows = (Object.keys(ENV_REFERENCE) as EnvVariable[]).map((name) => {
    const entry = ENV_REFERENCE[name];
    const fallback = entry.default ?? schemaDefault(name) ?? 'unset';
    return `| \`${name}\` | ${fallback} | ${entry.production} | ${entry.meaning} |`;
  });
  return [
    '# Environment reference',
    '',
    '<!-- Generated from apps/server/src/cli/environment-reference.ts (over the schema of apps/server/src/config.ts):',
    '     do not edit by hand; `pnpm env-reference` writes it again. -->',
    '',
    'Every variable the service reads, from the environment or a `.env` file in its working directory (the',
    'environment wins); a bad value stops the start with one line per problem. Durations take seconds or a',
    'unit (`45s`, `30m`, `2h`, `1d`). *Production* says whether a production deployment sets it:',
    '`required`, `required with several instances` (PostgreSQL behind a load balancer), `recommended`,',
    '`optional` (the default fits), `never` (development and diagnostics only). How to deploy:',
    '[docs/operating.md](../docs/operating.md).',
    '',
    '| variable | default | production | meaning |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
