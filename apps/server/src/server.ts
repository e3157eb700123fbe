import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { ServerOptions } from 'socket.io';
import { type App, createApp } from './app.ts';
import { type AnchorEventQueue, queueAnchorEvent } from './audit/anchor-event.ts';
import { ANCHOR_SETTLE_MS, MAX_ANCHOR_LEAVES } from './audit/anchor-writer.ts';
import { type AnchoringJob, startAnchoringJob } from './audit/anchoring-job.ts';
import { loadAuditSigningKey } from './audit/signing-key.ts';
import { type Config, PANEL_RESET_PATH, SETTING_DEFAULTS, scheduleMs } from './config.ts';
import type { Deps } from './deps.ts';
import { answerClientErrors } from './http/client-error.ts';
import { securityHeaders } from './http/security-headers.ts';
import { createIdGenerator } from './ids.ts';
import { createLogger } from './logger.ts';
import { createOutboxMailer, createSmtpMailer } from './mail/transports.ts';
import { createMetrics } from './ops/metrics.ts';
import { systemLookup } from './outbound/host-resolution.ts';
import { startPlayTicker } from './play/play-ticker.ts';
import { attachPlaySockets } from './realtime/play-socket.ts';
import { argon2idHasher } from './security/passwords.ts';
import { createSecretBox } from './security/secrets.ts';
import { loadServerKey } from './security/server-key.ts';
import { openConfiguredStore } from './store/open-store.ts';
import { CODE_GENERATION, HEARTBEAT_MS } from './store/write-generation.ts';

/** The production dependencies for a configuration; tests replace any of them. */
export function buildDeps(config: Config, overrides: Partial<Deps> = {}): Deps {
  const clock = overrides.clock ?? (() => new Date());
  const random = overrides.random ?? randomBytes;
  const logger = overrides.logger ?? createLogger(config.LOG_LEVEL);
  const from = config.MAIL_FROM;
  return {
    // A serving instance: the database decides whether this build's generation may write.
    store:
      overrides.store ??
      openConfiguredStore(config, {
        instance: { id: random(8).toString('hex'), generation: CODE_GENERATION },
        logger,
      }),
    clock,
    random,
    newId: overrides.newId ?? createIdGenerator(clock, random),
    secrets: overrides.secrets ?? createSecretBox(loadServerKey(config.DATA_DIR, config.SECRET_KEY), random),
    passwords: overrides.passwords ?? argon2idHasher,
    mailer:
      overrides.mailer ??
      (config.SMTP_URL
        ? createSmtpMailer(config.SMTP_URL, from)
        : createOutboxMailer(join(config.DATA_DIR, 'outbox'), from, logger, clock)),
    logger,
    metrics: overrides.metrics ?? createMetrics({ clock }),
    resolveHost: overrides.resolveHost ?? systemLookup,
    auditKey: overrides.auditKey ?? loadAuditSigningKey(config.DATA_DIR, config.AUDIT_SIGNING_KEY),
    settings: overrides.settings ?? {
      publicUrl: config.PUBLIC_URL,
      tokenTtlSeconds: config.TOKEN_TTL,
      replayTtlSeconds: config.REPLAY_TTL,
      panelUrl: config.PANEL_URL ?? `${config.PUBLIC_URL}${PANEL_RESET_PATH}`,
      allowPrivateOutbound: config.OUTBOUND_ALLOW_PRIVATE,
      play: {
        walletTimeoutMs: config.WALLET_TIMEOUT_MS,
        roundIdleMs: config.ROUND_IDLE_TIMEOUT * 1000,
        webhookScheduleMs: scheduleMs(config.WEBHOOK_RETRY_SCHEDULE),
        webhookInFlight: config.WEBHOOK_IN_FLIGHT,
        poolBlockSize: config.POOL_BLOCK_SIZE,
        poolBlockLeaseMs: config.POOL_BLOCK_LEASE * 1000,
      },
      ...(config.TRUST_PROXY !== undefined && { trustProxy: proxySetting(config.TRUST_PROXY) }),
      ...(config.METRICS_TOKEN !== undefined && { metricsToken: config.METRICS_TOKEN }),
      audit: { anchorEveryMs: config.AUDIT_ANCHOR_SECONDS * 1000 },
    },
  };
}

export interface RunningServer {
  app: App;
  /** The audit anchoring job; null without a signing key. */
  anchoring: AnchoringJob | null;
  server: Server;
  url: string;
  /**
   * Stops: /ready 503, no new buy, every play request in flight answered (or, after `deadlineMs`,
   * answered SERVICE_STOPPING), background work stopped, sockets closed so their clients reconnect.
   */
  close(options?: { deadlineMs?: number }): Promise<void>;
}

export interface StartOptions {
  /** /ready answers 503 until `app.readiness.started()`. */
  startingUntilToldReady?: boolean;
  /** One of several processes (WORKERS): pushes go through this Socket.IO adapter. */
  socketAdapter?: ServerOptions['adapter'];
  /**
   * At start, make every pending wallet call due at once (default): right when this process is
   * the whole installation, wrong beside others that may be sending them (their leases expire).
   */
  releasePendingAtStart?: boolean;
  /**
   * Another process delivers the webhooks (WORKERS on the embedded file: the primary): this one
   * does not start its dispatcher, and its rounds' units tell that process through this nudge.
   */
  webhookNudge?: () => void;
}

/**
 * Listens on host:port (0 = any free port) and runs the play loop: the Socket.IO play protocol,
 * the retries and time-outs, and webhook delivery. close() stops taking rounds, finishes those in
 * flight and stops in order, leaving the store open for the caller to close.
 */
export async function startServer(
  deps: Deps,
  host: string,
  port: number,
  options: StartOptions = {},
): Promise<RunningServer> {
  const app = createApp(deps, options);
  const server = createServer(app.express);
  server.keepAliveTimeout = 65_000;
  answerClientErrors(server, {
    securityHeaders: securityHeaders({ publicUrl: () => deps.settings.publicUrl }),
    logger: deps.logger,
  });
  const { services } = app;
  const sockets = attachPlaySockets(
    server,
    { play: services.play, sessions: services.sessions, logger: deps.logger },
    // A name of this process's own on the channel between processes (its presence messages).
    options.socketAdapter ? { adapter: options.socketAdapter, node: deps.random(8).toString('hex') } : {},
  );
  services.notifier.attach(sockets.notifier);
  services.sessionEndings.attach(sockets.sessionEndings);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const background = await startBackgroundWork(deps, app, options);
  // Refused (at open, or when a newer build raised the database's generation): nothing more is
  // written from here. New socket requests are answered SERVICE_STOPPING; /ready says why.
  deps.store.writer.onRefused(() => {
    void background.stop();
    void sockets.stopTaking();
  });
  const address = server.address() as AddressInfo;
  const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  return {
    app,
    get anchoring() {
      return background.anchoring();
    },
    server,
    url,
    async close({ deadlineMs = SETTING_DEFAULTS.STOP_TIMEOUT * 1000 } = {}) {
      app.readiness.stopping(); // first: load balancers stop sending work here
      await background.stopAnchoring();
      // Buys are refused from now; reveals are still served (they end rounds) until the play
      // service's work in flight is done. Then every new socket request is refused, and those
      // already under way are answered before any socket closes (issue 36).
      const drained = await withinDeadline(
        services.play.stop().then(() => sockets.stopTaking()),
        deadlineMs,
      );
      if (!drained) {
        // Their wallet calls were committed pending before they were sent: the retrier settles
        // them (another instance's, or this one's at its next start).
        const cut = sockets.answerRemaining();
        deps.logger.warn('stop deadline reached: requests still in flight answered SERVICE_STOPPING', {
          requests: cut,
          deadlineMs,
        });
      }
      await background.stop();
      server.closeIdleConnections();
      await sockets.close(); // every socket told to reconnect; closes the HTTP server too
    },
  };
}

interface BackgroundWork {
  /** The audit anchoring job, once started; null without a signing key or before. */
  anchoring(): AnchoringJob | null;
  stopAnchoring(): Promise<void>;
  /** Stops all of it (each part once); what never started stays unstarted. */
  stop(): Promise<void>;
}

/**
 * The work a process does besides answering: the play loop's ticker, webhook delivery, audit
 * anchors and its heartbeat. Started once the store says this instance may write (at once, unless
 * it waits for older instances to stop or is refused: store/write-generation.ts), so none of it
 * begins on an instance whose code is older than the database's.
 */
async function startBackgroundWork(deps: Deps, app: App, options: StartOptions): Promise<BackgroundWork> {
  const { services } = app;
  let stopped = false;
  let started: { ticker: { stop(): Promise<void> }; heartbeat: NodeJS.Timeout } | undefined;
  let anchoring: AnchoringJob | null = null;
  let anchoringStarted: Promise<unknown> = Promise.resolve();
  const start = async () => {
    if (stopped) return;
    const ticker = startPlayTicker(services.play, deps.logger, deps.settings.play?.tickMs, {
      releasePending: options.releasePendingAtStart ?? true,
    });
    if (!options.webhookNudge) services.webhookDelivery.dispatcher.start();
    // A failed heartbeat is tried again at the next; the instance is refused only on the minimum it reads.
    const beat = () =>
      deps.store.writer.beat().catch((error: unknown) => {
        deps.logger.warn('heartbeat failed', {
          error: error instanceof Error ? error.message : String(error),
        });
      });
    const heartbeat = setInterval(() => void beat(), HEARTBEAT_MS);
    heartbeat.unref();
    started = { ticker, heartbeat };
    anchoringStarted = startAuditAnchoring(deps, services.webhookDelivery.outbox).then((job) => {
      anchoring = job;
      if (stopped) return job?.stop();
    });
    await anchoringStarted;
  };
  const stopAnchoring = async () => {
    await anchoringStarted.catch(() => {});
    await anchoring?.stop();
  };
  let stopping: Promise<void> | undefined;
  // Writable already (the embedded file; a test that waited for its migrations): started before
  // the server is handed back, as before. Else once the migrations are done, in the background.
  if (deps.store.writer.isWritable()) await start();
  else
    void deps.store.writer.writable.then(start).catch((error: unknown) =>
      deps.logger.error('background work failed to start', {
        error: error instanceof Error ? error.message : String(error),
      }),
    );
  return {
    anchoring: () => anchoring,
    stopAnchoring,
    stop() {
      stopped = true;
      stopping ??= (async () => {
        if (!started) return;
        clearInterval(started.heartbeat);
        await stopAnchoring();
        await started.ticker.stop();
        await services.webhookDelivery.dispatcher.stop();
      })();
      return stopping;
    },
  };
}

/** Whether `work` settled within `ms` (it runs on either way). */
async function withinDeadline(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([work.then(() => true), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Records the signing key's public half (GET /v1/audit/key) and starts the anchoring job, whose
 * anchors queue the `anchor` webhook event in their own unit.
 */
async function startAuditAnchoring(deps: Deps, outbox: AnchorEventQueue): Promise<AnchoringJob | null> {
  const key = deps.auditKey;
  if (!key) return null;
  const now = deps.clock().toISOString();
  await deps.store.auditAnchors.addKey({ keyId: key.keyId, publicKey: key.publicKey, since: now });
  const settings = deps.settings.audit ?? { anchorEveryMs: SETTING_DEFAULTS.AUDIT_ANCHOR_SECONDS * 1000 };
  return startAnchoringJob(
    {
      store: deps.store,
      clock: deps.clock,
      key,
      settleMs: settings.settleMs ?? ANCHOR_SETTLE_MS,
      maxLeaves: MAX_ANCHOR_LEAVES,
      logger: deps.logger,
      owner: deps.random(8).toString('hex'),
      everyMs: settings.anchorEveryMs,
      inUnit: queueAnchorEvent(outbox),
    },
    { timer: settings.anchorEveryMs > 0 },
  );
}

/** "true"/"false", a hop count, or a list of addresses/names, as Express takes them. */
function proxySetting(value: string): string | number | boolean {
  if (value === 'true' || value === 'false') return value === 'true';
  return /^\d+$/.test(value) ? Number(value) : value;
}
