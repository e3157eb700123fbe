// The service's entry point: the only file that reads the environment, opens the database and listens.
import cluster, { type Worker } from 'node:cluster';
import type { AddressInfo } from 'node:net';
import { createAdapter as createClusterAdapter, setupPrimary } from '@socket.io/cluster-adapter';
import { createAdapter as createPostgresAdapter } from '@socket.io/postgres-adapter';
import { loadDotEnv, readConfig, STOP_EXIT_GRACE_SECONDS } from './config.ts';
import { demoCredentialLines, writeDemoCredentials } from './demo/credentials.ts';
import { type DemoInfo, setUpDemo } from './demo/setup.ts';
import type { Deps } from './deps.ts';
import { privateOutboundNotice } from './outbound/private-outbound-default.ts';
import { countedAdapter } from './realtime/counted-adapter.ts';
import { buildDeps, startServer } from './server.ts';
import { createServices } from './services/services.ts';
import { createPool } from './store/postgres/database.ts';
import { databaseForLogs } from './store/postgres/database-hosts.ts';
import { CODE_GENERATION } from './store/write-generation.ts';
import {
  batchedReports,
  coalescedNudge,
  DELIVERY_NUDGE,
  isDeliveryNudge,
  isSettledReport,
} from './webhooks/nudge.ts';

loadDotEnv();
// `--local`: the local demo and integration start (package.json's `serve`, which `npm start` runs).
const configured = readConfig(process.env, { localStart: process.argv.slice(2).includes('--local') });
if (!configured.ok) {
  console.error(`Raspa cannot start: the configuration has problems:\n  ${configured.errors.join('\n  ')}`);
  process.exit(1);
}
const config = configured.config;

if (config.WORKERS === 1) await serve({ alone: true });
else if (cluster.isPrimary) await supervise();
else await serve({ alone: false });

/**
 * How a push reaches a player's pages on other processes: NOTIFY through PostgreSQL between any
 * instances and workers sharing it, the cluster's IPC between the workers of one machine on the
 * embedded file, nothing for a lone process. Each message sent is counted (/metrics).
 */
function socketAdapter(deps: Deps, alone: boolean) {
  const counted = (adapter: Parameters<typeof countedAdapter>[0]) =>
    countedAdapter(adapter, deps.metrics.crossProcessMessage);
  if (config.DATABASE_URL) {
    const pool = createPool(config.DATABASE_URL, { max: 2 });
    const adapter = createPostgresAdapter(pool, {
      // Pushes then reach this process's own pages only; play itself is unaffected.
      errorHandler: (error) =>
        deps.logger.warn('socket pushes between instances failed', { error: error.message }),
    });
    return { adapter: counted(adapter), close: () => pool.end() };
  }
  return alone ? undefined : { adapter: counted(createClusterAdapter()), close: async () => {} };
}

/**
 * At a start alone on the embedded file, no process is draining a webhook's queue: the leases a
 * killed process held are ended, so its deliveries go again now rather than after their 60 s.
 */
async function releaseWebhookLeases(deps: Deps): Promise<void> {
  const released = await deps.store.outbox.releaseAllWebhooks();
  if (released > 0)
    deps.logger.info('webhook queues left leased by the last run are free again', { released });
}

/**
 * One serving process: the whole service when alone; otherwise one of WORKERS, the primary having
 * done what must happen once (migrations, the demo client, releasing pending wallet calls).
 */
async function serve({ alone }: { alone: boolean }): Promise<void> {
  const deps = buildDeps(config);
  // The primary's delivery attempts, counted here: /metrics is served by the workers.
  if (primaryDelivers())
    process.on('message', (message) => {
      if (!isSettledReport(message)) return;
      for (const [result, lag] of message.attempts) deps.metrics.webhookAttempt(result, lag ?? undefined);
    });
  if (alone && !config.DATABASE_URL && !deps.store.writer.refused()) await releaseWebhookLeases(deps);
  const pushes = socketAdapter(deps, alone);
  // /ready waits for the demo set-up below: a first start's apiKey must work once it says ready.
  const running = await startServer(deps, config.HOST, config.PORT, {
    startingUntilToldReady: alone,
    ...(pushes && { socketAdapter: pushes.adapter }),
    // A worker on the embedded file leaves the webhooks to the primary (see supervise).
    // A send after the primary died fails to the callback; the worker exits on the disconnect.
    ...(primaryDelivers() && {
      webhookNudge: coalescedNudge(() => process.send?.(DELIVERY_NUDGE, () => {})),
    }),
    // Only the whole installation may send pending calls at once: on PostgreSQL other instances
    // may be sending them, and their leases expire instead.
    releasePendingAtStart: alone && !config.DATABASE_URL,
  });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    deps.logger.info('stopping', { signal });
    exitAnywayAfter(deps, config.STOP_TIMEOUT + STOP_EXIT_GRACE_SECONDS);
    try {
      // /ready answers 503 from its first step; every play request in flight is answered.
      await running.close({ deadlineMs: config.STOP_TIMEOUT * 1000 });
      await running.app.services.panel.settled(); // queued reset e-mails go out before exit
      await pushes?.close();
      await deps.store.close();
    } catch (error) {
      deps.logger.error('stop failed', { error: error instanceof Error ? error.message : String(error) });
      process.exit(1);
    }
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  // After the signals are handled: on PostgreSQL this waits for the migrations, and for older
  // instances to stop when this build raises the database's generation.
  if (alone) {
    const demo = await demoUnlessRefused(
      () => setUpDemo(running.app.services, deps, config.DEMO_API_KEY),
      deps,
    );
    if (stopping) return;
    // Refused, it has nothing more to start: /ready then says why it does not serve.
    if (!deps.store.writer.refused()) announce(deps, running.url, demo, keepDemoCredentials(demo));
    running.app.readiness.started();
  }
}

/**
 * The demo set-up, unless this instance may not write (its code is older than the database's:
 * said once, /ready answers 503 with why) or stops while it waits: then nothing to set up.
 */
async function demoUnlessRefused(
  setUp: () => Promise<DemoInfo | undefined>,
  deps: Deps,
): Promise<DemoInfo | undefined> {
  try {
    return await setUp();
  } catch (error) {
    if (deps.store.writer.refused() || deps.store.writer.isClosing) return undefined;
    throw error;
  }
}

/**
 * Whether the primary delivers the webhooks: with WORKERS on the embedded file. The rounds saturate
 * the workers' event loops, where deliveries got a player's share of them and fell behind; the
 * primary is otherwise idle, and one drain per webhook in one process makes bigger record batches
 * (docs/store.md, "Deliveries in their own process"). On PostgreSQL each process delivers, as
 * before: instances share the queues through their leases.
 */
function primaryDelivers(): boolean {
  return config.WORKERS > 1 && !config.DATABASE_URL;
}

/**
 * The primary of WORKERS processes: sets the database up once, starts the workers (Node's
 * cluster shares PORT among them), starts a new one if one dies, delivers the webhooks on the
 * embedded file, and on SIGTERM or SIGINT stops them all, each draining as a single process does.
 */
async function supervise(): Promise<void> {
  const built = buildDeps(config);
  // Its attempts are counted by a live worker (the first), which serves /metrics; none is lost
  // unless no worker is connected at that moment. A worker may die between the check and the
  // write: its EPIPE comes to the callback (without one, an 'error' event on the Worker that
  // stopped the primary, and every worker with it).
  const toAWorker = batchedReports((report) =>
    Object.values(cluster.workers ?? {})
      .find((worker) => worker?.isConnected())
      ?.send(report, (error: Error | null) => {
        if (error)
          built.logger.warn('webhook attempts not counted: their worker stopped', { error: error.message });
      }),
  );
  const deps: Deps = primaryDelivers()
    ? { ...built, metrics: { ...built.metrics, webhookAttempt: toAWorker } }
    : built;
  // No worker runs yet, so none is sending a pending wallet call: they may all be sent again. Not
  // on PostgreSQL, where other instances may be sending them.
  if (!config.DATABASE_URL && !deps.store.writer.refused()) {
    const released = await deps.store.rounds.releasePending(deps.clock().toISOString());
    if (released > 0)
      deps.logger.warn('wallet calls left pending by the last run are due again', { released });
    await releaseWebhookLeases(deps);
  }
  const services = createServices(deps);
  // Refused (a build older than the database's): each worker is refused too and says so on /ready.
  const demo = await demoUnlessRefused(() => setUpDemo(services, deps, config.DEMO_API_KEY), deps);
  const deliveries =
    primaryDelivers() && !deps.store.writer.refused() ? services.webhookDelivery.dispatcher : undefined;
  if (deliveries) {
    // What the last run left queued goes now; then each worker's word that it queued more.
    deliveries.start();
    cluster.on('message', (_worker, message) => {
      if (isDeliveryNudge(message)) deliveries.nudge();
    });
  } else await deps.store.close();
  // Before any worker can answer /ready: whoever waits for ready finds the credentials' file.
  const credentials = keepDemoCredentials(demo);

  if (!config.DATABASE_URL) setupPrimary(); // relays the cluster adapter's messages between the workers
  let stopping = false;
  // From the start: a SIGTERM while the workers are still starting stops them too.
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    deps.logger.info('stopping the workers', { signal });
    // Each worker bounds its own stop; this bounds the deliveries' after them.
    exitAnywayAfter(deps, config.STOP_TIMEOUT + 2 * STOP_EXIT_GRACE_SECONDS);
    const running = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => !!worker);
    await Promise.all(
      running.map(
        (worker) =>
          new Promise<void>((resolve) => {
            if (worker.isDead()) return resolve();
            worker.once('exit', () => resolve());
            worker.process.kill('SIGTERM');
          }),
      ),
    );
    // After the workers: the events their last rounds queued are in the file for the next start.
    if (deliveries) {
      await deliveries.stop();
      await deps.store.close();
    }
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  const fork = (): Worker => {
    const worker = cluster.fork();
    // A message to a worker that just died (the Socket.IO adapter relays between them) fails with
    // EPIPE as an 'error' event: logged, as its 'exit' follows and starts another.
    worker.on('error', (error) =>
      deps.logger.warn('a message to a worker failed', { pid: worker.process.pid, error: error.message }),
    );
    worker.on('exit', (code, signal) => {
      if (stopping) return;
      deps.logger.error('a worker stopped; starting another', { pid: worker.process.pid, code, signal });
      fork();
    });
    return worker;
  };
  const workers = Array.from({ length: config.WORKERS }, fork);
  const listening = workers.map(
    (worker) => new Promise<AddressInfo>((resolve) => worker.once('listening', resolve)),
  );
  // Said once the first worker listens: the service answers from then on (and /ready with it),
  // so whoever waits for ready finds the start logged, however slowly the other workers start.
  const { port } = await Promise.race(listening);
  void Promise.all(listening).then(() =>
    deps.logger.info('workers listening', {
      workers: config.WORKERS,
      pids: workers.map((w) => w.process.pid),
    }),
  );
  announce(
    deps,
    `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${port}`,
    demo,
    credentials,
  );
}

/**
 * The bound docs/operating.md gives a stop: past it the process exits with 1, whatever still runs
 * (what it had begun is leased or pending in the database, for another process or the next start).
 */
function exitAnywayAfter(deps: Deps, seconds: number): void {
  setTimeout(() => {
    deps.logger.error('stop took too long; exiting now', { seconds });
    process.exit(1);
  }, seconds * 1000).unref();
}

/**
 * On a first start with stdout not a terminal (a collector, a file), the demo client's secrets go
 * to a file only its owner can read; its path, or undefined.
 */
function keepDemoCredentials(demo: DemoInfo | undefined): string | undefined {
  if (!demo || process.stdout.isTTY) return undefined;
  return writeDemoCredentials(config.DATA_DIR, demoCredentialLines(demo, config.PUBLIC_URL));
}

/** Says where the service is and, on a first start, the demo client's credentials or their file. */
function announce(
  deps: Deps,
  url: string,
  demo: DemoInfo | undefined,
  credentials: string | undefined,
): void {
  const database = config.DATABASE_URL
    ? databaseForLogs(config.DATABASE_URL)
    : `${config.DATA_DIR}/raspa.sqlite`;
  // Said at every start, so a setting meant for local integration is not left on in production, and
  // an exposed local start says why a wallet on this machine is refused and how to allow it.
  const outbound = privateOutboundNotice(config.privateOutbound, config.HOST);
  if (outbound) deps.logger[outbound.level](outbound.text);
  if (process.stdout.isTTY) {
    // A person at a terminal: the banner, secrets included, as they are shown only this once.
    const lines = [
      '',
      `Raspa is running at ${url} (public URL ${config.PUBLIC_URL})`,
      `  API docs:  ${config.PUBLIC_URL}/docs`,
      `  panel:     ${config.PUBLIC_URL}/panel`,
      `  database:  ${database}`,
    ];
    if (outbound) lines.push(`  outbound:  ${outbound.text}`);
    if (demo) lines.push('', ...demoCredentialLines(demo, config.PUBLIC_URL));
    console.log(`${lines.join('\n')}\n`);
    return;
  }
  // stdout is the log stream (a collector, a file): secrets go to a file only its owner can read.
  deps.logger.info('Raspa is running', {
    url,
    publicUrl: config.PUBLIC_URL,
    docs: `${config.PUBLIC_URL}/docs`,
    panel: `${config.PUBLIC_URL}/panel`,
    database,
    workers: config.WORKERS,
    // The rules of a round it writes by (docs/operating.md, "Upgrading").
    generation: CODE_GENERATION,
  });
  if (credentials) {
    deps.logger.info('demo API client created; its apiKey, panel password and a gameUrl are in a file', {
      path: credentials,
    });
  }
}
