import { apiCaller } from '../../test/harness.ts';
import { forkChild } from '../kit/child.ts';
import { cpuSeconds, perProcessCpu, processTree, treeCpu, treeCpuSeconds } from '../kit/cpu.ts';
import { crossProcessMessages } from '../kit/cross-process.ts';
import { loadAverage, rssMb } from '../kit/machine.ts';
import { sleep } from '../kit/processes.ts';
import {
  deliveryStatementsPerEvent,
  roundTripsPerRound,
  snapshotStatements,
  statementsPerRound,
} from '../kit/statements.ts';
import { type Latency, perSecond, triple } from '../kit/stats.ts';
import { type BenchDatabase, cpuBetween, cpuByKind } from './bench-database.ts';
import type { OperatorCounts, RunResult } from './messages.ts';
import { setUpPlayers } from './set-up.ts';
import { BENCH_API_KEY, startFleet } from './start-fleet.ts';
import { statementProfile } from './statement-profile.ts';
import { noFleet, stopFleet } from './stop-fleet.ts';

/**
 * One measured stretch of the play loop: the real service, the operator (HTTP wallet + webhook
 * receiver) and the players (Socket.IO clients buying and revealing in a loop) each in their own
 * process, all on 127.0.0.1. On `database` (PostgreSQL, the caller's to close) N instances share
 * it, the players spread over them directly (player i on instance i mod N, no load balancer), and
 * PostgreSQL's CPU, commits and WAL are measured; without it, one instance on its own SQLite file.
 * Starts and stops its own fleet.
 */
const DRAIN_LIMIT_MS = 60_000;
/**
 * The warm-up plays flat out whatever the offered load, for this long (or the run's own length if
 * shorter): at 90 rounds/s a warm-up at that pace left the JIT cold, and the measured seconds cost
 * 0.66 cores falling to 0.35 over 20 s at a steady rate (2026-11-29, issue 34 item 5).
 */
const WARM_UP_SECONDS = 5;

export interface PlayOptions {
  players: number;
  seconds: number;
  /** Service processes per instance (the WORKERS setting). */
  workers: number;
  instances: number;
  /** A pause after each round, per player: a load below saturation (0: as fast as answered). */
  thinkMs: number;
  withWebhooks: boolean;
  /** The webhook is a batch webhook (default limits). */
  batchWebhook?: boolean;
  /**
   * SQL statements per round: counted in the service on SQLite, by pg_stat_statements on
   * PostgreSQL (the database must have been started counting them).
   */
  statements: boolean;
  /** Only for the command printed: PostgreSQL was reached over loopback TCP. */
  tcp?: boolean;
  /** Where the service writes its --cpu-prof profiles; none: not profiled. */
  profileDir?: string | undefined;
  database?: BenchDatabase | undefined;
}

/** The RSS of the service's processes together (the primary and its WORKERS). */
const treeRssMb = (pid: number | undefined) =>
  processTree(pid).reduce((sum, each) => sum + (rssMb(each) ?? 0), 0);

export async function measurePlay(options: PlayOptions) {
  const { players, seconds, workers, thinkMs, withWebhooks, database } = options;
  const instanceCount = options.instances;
  const onPostgres = database !== undefined;
  const fleet = noFleet();
  try {
    const { operator, address, services, urls, statementsFile } = await startFleet(
      {
        instances: instanceCount,
        workers,
        database,
        // On PostgreSQL the service counts only its round trips and units (cheap): always on there.
        statementsFile: (dir) => (options.statements || onPostgres ? `${dir}/statements` : undefined),
        nodeFlags: options.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`] : [],
      },
      fleet,
    );
    const url = urls[0] as string;
    console.log(`setting up ${players} players…`);
    const { tokens, sessions } = await setUpPlayers(
      url,
      BENCH_API_KEY,
      address,
      players,
      withWebhooks,
      options.batchWebhook,
    );
    /** The webhook's delivery-log counters (GET /v1/webhook), if one is registered. */
    const attemptCounts = async () => {
      const hooks = await apiCaller(url)('GET', '/v1/webhook', { token: tokens });
      return (hooks.body.data as { successCount: number; failureCount: number }[])[0];
    };
    /**
     * The counters once the log holds at least `attempts` (the receiver can have an event a moment
     * before the service has committed its log row), or as they are after 30 s (a bound for a loaded
     * machine: it returns as soon as the log has caught up).
     */
    const loggedAttempts = async (attempts: number) => {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const counts = await attemptCounts();
        if (!counts || counts.successCount + counts.failureCount >= attempts || Date.now() > deadline)
          return counts;
        await sleep(50);
      }
    };
    const load = forkChild(new URL('./players-process.ts', import.meta.url));
    fleet.load = load;
    await load.ask('connect', { urls, tokens: sessions });
    // Warm-up, not measured: the JIT, the first pool's tables, connections to the wallet and receiver.
    const warm = await load.ask<RunResult>('run', {
      seconds: Math.min(WARM_UP_SECONDS, seconds),
      thinkMs: 0,
    });
    const warmEvents = withWebhooks ? warm.buys + warm.rounds : 0;
    const warmDeadline = Date.now() + DRAIN_LIMIT_MS;
    while (
      (await operator.ask<OperatorCounts>('counts')).distinctEvents < warmEvents &&
      Date.now() < warmDeadline
    )
      await sleep(50);
    const before = await operator.ask<OperatorCounts>('counts');
    const hookBefore = await loggedAttempts(warmEvents);
    const rssBefore = services.reduce((sum, each) => sum + treeRssMb(each.pid), 0);
    console.log(`${players} players connected; playing for ${seconds} s…`);

    const processes = { operator: operator.process.pid, players: load.process.pid };
    // The service's workers (WORKERS) are its child processes: counted with it, and each apart.
    const serviceProcesses = services.reduce((sum, each) => sum + processTree(each.pid).length, 0);
    const serviceTreesBefore = services.map((each) => treeCpu(each.pid));
    const cpu = (): Record<string, number | null> => ({
      service: services.reduce((sum, each) => sum + (treeCpuSeconds(each.pid) ?? 0), 0),
      ...Object.fromEntries(Object.entries(processes).map(([name, pid]) => [name, cpuSeconds(pid)])),
    });
    const servicePids = () => services.flatMap((each) => processTree(each.pid));
    /**
     * The statements run so far: the service's own counts on SQLite, pg_stat_statements' on
     * PostgreSQL (where the service's own file holds its round trips and units instead).
     */
    const serviceCounts = async () =>
      statementsFile ? await snapshotStatements(statementsFile, servicePids()) : undefined;
    const tripsBefore = onPostgres ? await serviceCounts() : undefined;
    const pgStatementsBefore = await database?.statements();
    const statementsBefore = onPostgres ? pgStatementsBefore : await serviceCounts();
    const messagesBefore = await crossProcessMessages(urls, workers);
    const cpuBefore = cpu();
    const postgresBefore = database?.cpu() ?? null;
    const countsBefore = await database?.transactions();
    const walBefore = await database?.wal();
    const run = await load.ask<RunResult>('run', { seconds, thinkMs });
    const walAfter = await database?.wal();
    const countsAfter = await database?.transactions();
    const postgresAfter = database?.cpu() ?? null;
    const cpuAfter = cpu();
    const messagesAfter = await crossProcessMessages(urls, workers);
    const pgStatementsAfter = pgStatementsBefore && (await database?.statements());
    const statementsAfter = onPostgres ? pgStatementsAfter : statementsBefore && (await serviceCounts());
    const tripsAfter = tripsBefore && (await serviceCounts());
    const trips = tripsBefore && tripsAfter && roundTripsPerRound(tripsBefore, tripsAfter, run.rounds);
    const statements =
      statementsBefore && statementsAfter
        ? statementsPerRound(statementsBefore, statementsAfter, run.rounds)
        : undefined;
    // On PostgreSQL, pg_stat_statements' own counters of each statement: where its CPU goes.
    const profile =
      pgStatementsBefore && pgStatementsAfter
        ? statementProfile(pgStatementsBefore, pgStatementsAfter, run.rounds)
        : undefined;
    const perProcess = services.flatMap((each, instance) =>
      perProcessCpu(
        each.pid as number,
        serviceTreesBefore[instance] ?? new Map(),
        treeCpu(each.pid),
        run.elapsed,
        run.rounds,
      ).map((reading) => ({ instance, ...reading })),
    );
    const postgresCpu = cpuBetween(postgresBefore, postgresAfter);
    const postgresByKind = cpuByKind(postgresBefore, postgresAfter);
    const perRound = (value: number, digits = 2) =>
      Math.round((value / run.rounds) * 10 ** digits) / 10 ** digits;
    const wal = walBefore &&
      walAfter && {
        bytesPerRound: perRound(walAfter.bytes - walBefore.bytes, 0),
        recordsPerRound: perRound(walAfter.records - walBefore.records, 1),
        fullPageImagesPerRound: perRound(walAfter.fullPageImages - walBefore.fullPageImages),
        syncsPerRound: perRound(walAfter.syncs - walBefore.syncs),
      };
    const counted = (key: 'commits' | 'rollbacks') =>
      countsBefore === undefined || countsAfter === undefined ? null : countsAfter[key] - countsBefore[key];
    const commits = counted('commits');
    const rollbacks = counted('rollbacks');
    const postgres = database && {
      cpuMsPerRound:
        postgresCpu === null ? null : Math.round(((postgresCpu * 1000) / run.rounds) * 100) / 100,
      cores: postgresCpu === null ? null : Math.round((postgresCpu / run.elapsed) * 100) / 100,
      commitsPerSecond: commits === null ? null : perSecond(commits, run.elapsed),
      commitsPerRound: commits === null ? null : Math.round((commits / run.rounds) * 100) / 100,
      rollbacksPerRound: rollbacks === null ? null : Math.round((rollbacks / run.rounds) * 100) / 100,
      /** CPU ms per round of the cluster's processes by kind: the backends, walwriter, autovacuum… */
      cpuMsPerRoundByKind:
        postgresByKind &&
        Object.fromEntries(
          Object.entries(postgresByKind).map(([kind, used]) => [kind, perRound(used * 1000)]),
        ),
      wal,
      ...(trips && {
        roundTripsPerRound: trips.roundTrips,
        sentPerRound: trips.sent,
        unitsPerRound: trips.units,
        connectionWaitsPerRound: trips.waits,
      }),
    };
    // What crossed between the service's processes (cluster IPC or PostgreSQL NOTIFY) during the run.
    const messages = Object.fromEntries(
      Object.entries(messagesAfter).map(([kind, count]) => [
        kind,
        count - messagesBefore[kind as keyof typeof messagesBefore],
      ]),
    ) as typeof messagesAfter;
    const messagesTotal = messages.push + messages.presence + messages.heartbeat + messages.other;
    const crossProcess = {
      ...messages,
      perRound: Math.round((messagesTotal / run.rounds) * 1000) / 1000,
    };
    // Cores each process kept busy during the run (2.0 = two whole cores).
    const coresUsed = Object.fromEntries(
      ['service', ...Object.keys(processes)].map((name) => [
        name,
        Math.round((((cpuAfter[name] ?? 0) - (cpuBefore[name] ?? 0)) / run.elapsed) * 100) / 100,
      ]),
    );
    const after = await operator.ask<OperatorCounts>('counts');
    // Events the receiver got between the two snapshots (taken just inside them): the delivery side's cost.
    const deliveryStatements =
      statementsBefore && statementsAfter
        ? deliveryStatementsPerEvent(
            statementsBefore,
            statementsAfter,
            after.distinctEvents - before.distinctEvents,
          )
        : null;
    const rssAfter = services.reduce((sum, each) => sum + treeRssMb(each.pid), 0);
    const load1m = loadAverage();

    // One open-round per accepted buy, one close-round per closed round.
    const expected = before.distinctEvents + (withWebhooks ? run.buys + run.rounds : 0);
    const undeliveredAtEnd = expected - after.distinctEvents;
    const drainStart = performance.now();
    let drained = after;
    while (drained.distinctEvents < expected && performance.now() - drainStart < DRAIN_LIMIT_MS) {
      await sleep(50);
      drained = await operator.ask<OperatorCounts>('counts');
    }
    const drainMs = Math.round(performance.now() - drainStart);
    // The service's CPU until every event of the run was delivered: a round's whole cost, its
    // deliveries included, whether they went during the run or after it (issue 35 compares these).
    const cpuDrained = cpu();
    const { lagMs } = await operator.ask<{ lagMs: Latency }>('lag', { fromEvent: before.events });
    const hookAfter = await loggedAttempts(
      (hookBefore ? hookBefore.successCount + hookBefore.failureCount : 0) + expected - before.distinctEvents,
    );
    const hook = hookAfter &&
      hookBefore && {
        successCount: hookAfter.successCount - hookBefore.successCount,
        failureCount: hookAfter.failureCount - hookBefore.failureCount,
      };
    const command = `${workers > 1 ? `WORKERS=${workers} ` : ''}pnpm bench:play --players ${players} --seconds ${seconds}${withWebhooks ? '' : ' --no-webhooks'}${options.batchWebhook ? ' --batch-webhook' : ''}${thinkMs > 0 ? ` --think-ms ${thinkMs}` : ''}${onPostgres ? ` --database postgres --instances ${instanceCount}${options.tcp ? ' --tcp' : ''}` : ''}${options.statements ? ' --statements' : ''}`;

    const result = {
      players,
      withWebhooks,
      thinkMs,
      seconds: Math.round(run.elapsed * 100) / 100,
      rounds: run.rounds,
      roundsPerSecond: perSecond(run.rounds, run.elapsed),
      buyMs: run.buyMs,
      revealMs: run.revealMs,
      walletCallsPerSecond: perSecond(after.walletCalls - before.walletCalls, run.elapsed),
      webhooks: {
        batch: options.batchWebhook === true,
        /** Webhook requests the receiver got per round during the run (a batch is one). */
        requestsPerRound: Math.round(((after.hookRequests - before.hookRequests) / run.rounds) * 1000) / 1000,
        deliveredPerSecond: perSecond(after.distinctEvents - before.distinctEvents, run.elapsed),
        expected: expected - before.distinctEvents,
        undeliveredAtEnd,
        drainMs: drained.distinctEvents >= expected ? drainMs : null,
        lagMs,
        attemptsSucceeded: hook?.successCount,
        attemptsFailed: hook?.failureCount,
      },
      serviceProcesses,
      workers,
      database: onPostgres ? 'postgres' : 'sqlite',
      instances: instanceCount,
      postgres,
      serviceRssMb: { connected: rssBefore, afterRun: rssAfter },
      coresUsed,
      /** The service's CPU time per round: what a round costs, whatever else the machine was doing. */
      serviceCpuMsPerRound:
        Math.round((((cpuAfter.service ?? 0) - (cpuBefore.service ?? 0)) * 1000 * 100) / run.rounds) / 100,
      /** The same until every event was delivered (the drain after the run included); null if it was not. */
      serviceCpuMsPerRoundDelivered:
        drained.distinctEvents >= expected
          ? Math.round((((cpuDrained.service ?? 0) - (cpuBefore.service ?? 0)) * 1000 * 100) / run.rounds) /
            100
          : null,
      /** The same, for each process of the service: the primary and each worker apart. */
      serviceProcessCpu: perProcess,
      loadAverage1m: load1m,
      statementsPerRound: statements,
      /** PostgreSQL with --statements: each statement's pg_stat_statements counters per round. */
      statementProfile: profile,
      /** Webhook delivery's statements (queue reads, leases, log, events, counters) per event delivered. */
      deliveryStatementsPerEvent: deliveryStatements,
      /** Messages between the service's processes during the run, by kind, and all of them per round. */
      crossProcessMessages: crossProcess,
      errors: run.errors,
      errorSamples: run.errorSamples,
    };
    const table: Record<string, unknown> = {
      'service processes': serviceProcesses,
      ...(onPostgres && { 'database / instances': `postgres / ${instanceCount}` }),
      'rounds/s': result.roundsPerSecond,
      rounds: result.rounds,
      'buy p50/p95/p99 ms': triple(run.buyMs),
      'reveal p50/p95/p99 ms': triple(run.revealMs),
      'wallet calls/s': result.walletCallsPerSecond,
      'webhook deliveries/s': result.webhooks.deliveredPerSecond,
      'webhook requests per round': `${result.webhooks.requestsPerRound}${result.webhooks.batch ? ' (batch webhook)' : ''}`,
      'webhook lag p50/p95/p99 ms': triple(lagMs),
      'webhooks undelivered at end': undeliveredAtEnd,
      'webhook drain ms': result.webhooks.drainMs ?? `> ${DRAIN_LIMIT_MS}`,
      'webhook attempts ok / failed': `${hook?.successCount} / ${hook?.failureCount}`,
      'service CPU ms per round': result.serviceCpuMsPerRound,
      'service CPU ms per round, every event delivered': result.serviceCpuMsPerRoundDelivered ?? '–',
      ...Object.fromEntries(
        perProcess.map((each) => [
          `  ${instanceCount > 1 ? `instance ${each.instance} ` : ''}${each.role} ${each.pid}: CPU ms per round / cores`,
          `${each.cpuMsPerRound} / ${each.cores}`,
        ]),
      ),
      ...(postgres && {
        'PostgreSQL CPU ms per round / cores': `${postgres.cpuMsPerRound} / ${postgres.cores}`,
        'PostgreSQL commits/s (per round)': `${postgres.commitsPerSecond} (${postgres.commitsPerRound})`,
        'PostgreSQL rollbacks per round': postgres.rollbacksPerRound,
        'PostgreSQL CPU ms per round by process': Object.entries(postgres.cpuMsPerRoundByKind ?? {})
          .filter(([, ms]) => ms > 0)
          .map(([kind, ms]) => `${kind} ${ms}`)
          .join(', '),
        ...(postgres.wal && {
          'WAL bytes / records / full pages / flushes per round': `${postgres.wal.bytesPerRound} / ${postgres.wal.recordsPerRound} / ${postgres.wal.fullPageImagesPerRound} / ${postgres.wal.syncsPerRound}`,
        }),
      }),
      ...(trips && {
        'round trips / statements sent / units per round': `${trips.roundTrips} / ${trips.sent} / ${trips.units}`,
        'units that waited for a connection, per round': trips.waits,
      }),
      ...(statements && {
        'SQL statements / ms per round': `${statements.statements} / ${statements.ms}`,
        'webhook delivery statements per delivered event': deliveryStatements?.perEvent,
      }),
      'messages between processes per round (push / presence / heartbeat)': `${crossProcess.perRound} (${messages.push} / ${messages.presence} / ${messages.heartbeat})`,
      'service RSS MB': rssAfter,
      'cores used: service / operator / players': `${coresUsed.service} / ${coresUsed.operator} / ${coresUsed.players}`,
      'load average (1 min)': load1m,
      errors: run.errors,
    };
    return { command, result, table, statements, deliveryStatements, profile };
  } finally {
    await stopFleet(fleet);
  }
}
