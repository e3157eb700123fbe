import cluster from 'node:cluster';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** What the store tells at scrape time (store/ops-repo.ts). */
export interface StoreReadings {
  webhookBacklog(): Promise<{ queued: number; oldestCreatedAt: string | null }>;
  currentPools(): Promise<{ gameId: string; gameModel: string; ticketsLeft: number; tickets: number }[]>;
}

/** What a message between processes carried (realtime/counted-adapter.ts). */
export type CrossProcessKind = 'push' | 'presence' | 'session_end' | 'heartbeat' | 'other';

export type RoundOutcome = 'won' | 'lost' | 'prize_given_up' | 'declined' | 'voided';
export type WebhookResult = 'delivered' | 'failed' | 'given_up';

// Seconds; wallet and webhook calls time out at 5 s and 15 s, so the buckets reach past those.
const CALL_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20];
const LAG_BUCKETS = [0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 1800, 3600, 6 * 3600, 24 * 3600];

/**
 * The service's Prometheus metrics (docs/contract.md §12), on a registry of its own per app instance, so
 * tests running several servers in one process never share or collide on counters.
 */
export function createMetrics(options: { processMetrics?: boolean; clock?: () => Date } = {}) {
  const registry = new Registry();
  const clock = options.clock ?? (() => new Date());
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const roundsOpened = new Counter({
    name: 'raspa_rounds_opened_total',
    help: 'Rounds opened (bet accepted, card drawn).',
    registers,
  });
  const rounds = new Counter({
    name: 'raspa_rounds_total',
    help: 'Rounds ended, by outcome: won, lost, prize_given_up (needs reconciliation), declined or voided (bet refused or unanswered).',
    labelNames: ['outcome'] as const,
    registers,
  });
  const playDuration = new Histogram({
    name: 'raspa_play_duration_seconds',
    help: 'Time to answer a buy or a reveal, wallet call included, by action and result (ok or the error code).',
    labelNames: ['action', 'result'] as const,
    buckets: CALL_BUCKETS,
    registers,
  });
  const walletCalls = new Counter({
    name: 'raspa_wallet_calls_total',
    help: 'Calls to the wallets, by operation and result (ok, declined, unknown: no definite answer).',
    labelNames: ['operation', 'result', 'wallet'] as const,
    registers,
  });
  const walletDuration = new Histogram({
    name: 'raspa_wallet_call_duration_seconds',
    help: 'Latency of the wallet calls, by operation and result.',
    labelNames: ['operation', 'result', 'wallet'] as const,
    buckets: CALL_BUCKETS,
    registers,
  });
  const webhookDeliveries = new Counter({
    name: 'raspa_webhook_deliveries_total',
    help: 'Webhook delivery attempts, by result: delivered (2xx), failed (will retry), given_up.',
    labelNames: ['result'] as const,
    registers,
  });
  const webhookLag = new Histogram({
    name: 'raspa_webhook_delivery_lag_seconds',
    help: 'From an event’s creation to its successful delivery.',
    buckets: LAG_BUCKETS,
    registers,
  });
  const httpRequests = new Counter({
    name: 'raspa_http_requests_total',
    help: 'HTTP requests, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers,
  });
  const httpDuration = new Histogram({
    name: 'raspa_http_request_duration_seconds',
    help: 'HTTP request duration, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: CALL_BUCKETS,
    registers,
  });

  const crossProcess = new Counter({
    name: 'raspa_cross_process_messages_total',
    help: 'Messages this process sent to the other processes or instances (Socket.IO adapter: cluster IPC or PostgreSQL NOTIFY), by kind: push (balance, round), presence, session_end (sessions an operator or an exclusion ended), heartbeat, other. worker: the cluster worker id (0: not a worker), as a scrape of a shared port reaches any worker.',
    labelNames: ['kind', 'worker'] as const,
    registers,
  });
  const worker = String(cluster.worker?.id ?? 0);

  let store: StoreReadings | undefined;
  /** Reads the store at scrape time; an unreadable store leaves the gauge empty (and /ready says why). */
  const read = async <T>(reading: (store: StoreReadings) => Promise<T>): Promise<T | undefined> => {
    try {
      return store && (await reading(store));
    } catch {
      return undefined;
    }
  };
  new Gauge({
    name: 'raspa_webhook_backlog_events',
    help: 'Webhook events queued (not yet delivered, given up or dropped).',
    registers,
    async collect() {
      const backlog = await read((s) => s.webhookBacklog());
      if (backlog) this.set(backlog.queued);
    },
  });
  new Gauge({
    name: 'raspa_webhook_oldest_queued_age_seconds',
    help: 'Age of the oldest queued webhook event (0 when none): grows while a receiver is failing.',
    registers,
    async collect() {
      const backlog = await read((s) => s.webhookBacklog());
      if (!backlog) return;
      const oldest = backlog.oldestCreatedAt ? Date.parse(backlog.oldestCreatedAt) : Number.NaN;
      this.set(Number.isNaN(oldest) ? 0 : Math.max(0, (clock().getTime() - oldest) / 1000));
    },
  });
  new Gauge({
    name: 'raspa_pool_tickets_left',
    help: 'Tickets left in the current pool of each active game.',
    labelNames: ['game_id', 'game_model'] as const,
    registers,
    async collect() {
      const pools = await read((s) => s.currentPools());
      this.reset();
      for (const pool of pools ?? []) {
        this.set({ game_id: pool.gameId, game_model: pool.gameModel }, pool.ticketsLeft);
      }
    },
  });
  new Gauge({
    name: 'raspa_pool_tickets',
    help: 'Tickets in the current pool of each active game (its sampling).',
    labelNames: ['game_id', 'game_model'] as const,
    registers,
    async collect() {
      const pools = await read((s) => s.currentPools());
      this.reset();
      for (const pool of pools ?? []) {
        this.set({ game_id: pool.gameId, game_model: pool.gameModel }, pool.tickets);
      }
    },
  });

  return {
    registry,
    /** Where the scrape-time gauges read from; set once the store is open. */
    readFrom(readings: StoreReadings) {
      store = readings;
    },
    roundOpened: () => roundsOpened.inc(),
    roundEnded: (outcome: RoundOutcome) => rounds.inc({ outcome }),
    play: (action: 'buy' | 'reveal', result: string, seconds: number) =>
      playDuration.observe({ action, result }, seconds),
    walletCall: (operation: string, result: string, wallet: string, seconds: number) => {
      walletCalls.inc({ operation, result, wallet });
      walletDuration.observe({ operation, result, wallet }, seconds);
    },
    webhookAttempt: (result: WebhookResult, lagSeconds?: number) => {
      webhookDeliveries.inc({ result });
      if (lagSeconds !== undefined) webhookLag.observe(Math.max(0, lagSeconds));
    },
    crossProcessMessage: (kind: CrossProcessKind) => crossProcess.inc({ kind, worker }),
    httpRequest: (method: string, route: string, status: number, seconds: number) => {
      const labels = { method, route, status: String(status) };
      httpRequests.inc(labels);
      httpDuration.observe(labels, seconds);
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
