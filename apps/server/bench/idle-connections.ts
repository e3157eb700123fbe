import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createDemoSessions } from './idle/demo-sessions.ts';
import type { Closed, Connected, ConnectOrder } from './idle/idle-clients.ts';
import { openFilesLimit } from './idle/open-files.ts';
import { type BenchChild, forkChild } from './kit/child.ts';
import { corePercent, cpuSeconds } from './kit/cpu.ts';
import { loadAverage, rssMb } from './kit/machine.ts';
import { sleep, startServiceOnFreePort, stopProcess } from './kit/processes.ts';
import { report } from './kit/report.ts';
import { triple } from './kit/stats.ts';
import { within } from './kit/within.ts';

/**
 * Idle connections: the real service as its own process, N players with a session each (made
 * through the API), connected the way the page connects (WebSocket, session token, one `state`
 * request) from separate load-generator processes, then left idle. Reports the service's RSS
 * before and after, per player, how long connecting took, and every failure.
 * Target (issue 7): 10,000 idle players in at most 1 GB of service RSS.
 */
const { values } = parseArgs({
  options: {
    players: { type: 'string', default: '10000' },
    generators: { type: 'string' },
    concurrency: { type: 'string', default: '100' },
    // One heartbeat (pingInterval 25 s) at least, so a connection the heartbeat would drop is seen.
    'idle-seconds': { type: 'string', default: '30' },
    'settle-seconds': { type: 'string', default: '5' },
    'no-state': { type: 'boolean', default: false },
    'cpu-prof': { type: 'string' },
  },
});
const players = Number(values.players);
// socket.io-client costs tens of KB per connection: a few thousand per generator process.
const generators = Number(values.generators ?? Math.max(1, Math.ceil(players / 2500)));
const concurrency = Number(values.concurrency);
const idleSeconds = Number(values['idle-seconds']);
const settleSeconds = Number(values['settle-seconds']);
const askState = !values['no-state'];
if (
  ![players, generators, concurrency].every((n) => Number.isInteger(n) && n > 0) ||
  !(idleSeconds >= 0 && settleSeconds >= 0)
) {
  console.error(
    'usage: pnpm bench:idle [--players N] [--generators G] [--concurrency C] [--idle-seconds S] ' +
      '[--settle-seconds S] [--no-state] [--cpu-prof DIR]',
  );
  process.exit(2);
}
const command =
  `pnpm bench:idle --players ${players} --generators ${generators} --concurrency ${concurrency}` +
  ` --idle-seconds ${idleSeconds} --settle-seconds ${settleSeconds}${askState ? '' : ' --no-state'}`;

const API_KEY = 'rsp_bench-api-key-0123456789abcdef';
const TARGET_MB = 1024;
const probe = fileURLToPath(new URL('./idle/memory-probe.ts', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'raspa-idle-'));
const probeFile = join(dataDir, 'memory-probe.json');

interface ProbeSnapshot {
  at: number;
  collected: boolean;
  rssMb: number;
  heapTotalMb: number;
  heapUsedMb: number;
  externalMb: number;
  arrayBuffersMb: number;
}

/** A full GC in the service, then its memory as the service itself sees it (idle/memory-probe.ts). */
async function settledMemory(service: ChildProcess): Promise<ProbeSnapshot> {
  const asked = Date.now();
  service.kill('SIGUSR2');
  for (const deadline = asked + 30_000; Date.now() < deadline; await sleep(50)) {
    if (!existsSync(probeFile)) continue;
    const snapshot = JSON.parse(readFileSync(probeFile, 'utf8')) as ProbeSnapshot;
    if (snapshot.at >= asked) return snapshot;
  }
  throw new Error('the service did not answer the memory probe');
}

const log = (line: string) => console.log(`[idle] ${line}`);

let service: ChildProcess | undefined;
const clients: BenchChild[] = [];
try {
  const started = await startServiceOnFreePort({
    dataDir,
    apiKey: API_KEY,
    env: { RASPA_MEMORY_PROBE_FILE: probeFile },
    nodeFlags: [
      '--expose-gc',
      ...(values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${values['cpu-prof']}`] : []),
      '--import',
      'tsx',
      '--import',
      probe,
    ],
  });
  service = started.child;
  const url = `http://127.0.0.1:${started.port}`;
  const serviceFiles = openFilesLimit(service.pid);
  if (serviceFiles !== null && serviceFiles < players + 1000)
    log(`warning: the service may open only ${serviceFiles} files; raise ulimit -n (hard limit) first`);
  const rssAtStart = rssMb(service.pid);

  const setUpStart = performance.now();
  const tokens = await createDemoSessions(url, API_KEY, players, {
    concurrency: 16,
    onProgress: (done) => log(`sessions: ${done} / ${players}`),
  });
  const setUpSeconds = Math.round((performance.now() - setUpStart) / 100) / 10;

  for (let i = 0; i < generators; i++)
    clients.push(forkChild(new URL('./idle/idle-clients.ts', import.meta.url)));
  const clientFiles = clients.map((client) => openFilesLimit(client.process.pid));
  const share = Math.ceil(players / generators);
  if (clientFiles.some((limit) => limit !== null && limit < share + 100))
    log(`warning: a generator may open only ${Math.min(...clientFiles.map(Number))} files; add --generators`);

  // The set-up's garbage collected and given time to go back, as after connecting (symmetry).
  const before = await settledMemory(service);
  await sleep(settleSeconds * 1000);
  const rssBefore = rssMb(service.pid) ?? Number.NaN;
  log(`service RSS before connecting: ${rssBefore} MB (heap used ${before.heapUsedMb} MB after GC)`);

  // Each generator connects its share; progress is summed across them.
  const progress = new Map<BenchChild, number>();
  let lastLog = 0;
  for (const client of clients) {
    client.process.on('message', (message: { type?: string; done?: number }) => {
      if (message.type !== 'progress') return;
      progress.set(client, Number(message.done));
      if (Date.now() - lastLog < 2000) return;
      lastLog = Date.now();
      const done = [...progress.values()].reduce((sum, n) => sum + n, 0);
      log(`connecting: ${done} / ${players}, service RSS ${rssMb(service?.pid)} MB`);
    });
  }
  const processes = [service, ...clients.map((client) => client.process)];
  const connectStart = performance.now();
  const cpuBefore = processes.map((child) => cpuSeconds(child.pid));
  const connected = await Promise.all(
    clients.map((client, i) => {
      const order: ConnectOrder = {
        url,
        tokens: tokens.slice(i * share, (i + 1) * share),
        concurrency: Math.max(1, Math.ceil(concurrency / generators)),
        askState,
      };
      return within(client.ask<Connected>('connect', order), 120_000 + players * 50, 'connecting');
    }),
  );
  const connectSeconds = Math.round((performance.now() - connectStart) / 100) / 10;
  // Who was busy while connecting: the service, or the generators (percent of one core each).
  const [serviceCpu, ...generatorCpu] = processes.map((child, i) =>
    corePercent(cpuBefore[i] ?? null, cpuSeconds(child.pid), connectSeconds),
  );
  const total = connected.reduce((sum, c) => sum + c.connected, 0);
  const failed = connected.reduce((sum, c) => sum + c.failed, 0);
  const stateErrors = connected.reduce((sum, c) => sum + c.stateErrors, 0);
  const errors: Record<string, number> = {};
  for (const c of connected)
    for (const [reason, n] of Object.entries(c.errors)) errors[reason] = (errors[reason] ?? 0) + n;
  const stateSamples = connected.map((c) => c.stateMs);
  log(`connected ${total} / ${players} in ${connectSeconds} s; idle for ${idleSeconds} s`);

  await sleep(idleSeconds * 1000);
  const rssIdle = rssMb(service.pid) ?? Number.NaN;
  const settled = await settledMemory(service);
  await sleep(settleSeconds * 1000);
  const rssSettled = rssMb(service.pid) ?? Number.NaN;

  const closed = await Promise.all(
    clients.map((client) => within(client.ask<Closed>('close'), 60_000, 'closing')),
  );
  const dropped = closed.reduce((sum, c) => sum + c.droppedWhileIdle, 0);
  const perPlayerKb = (rss: number) => (total > 0 ? Math.round(((rss - rssBefore) * 1024) / total) : null);

  const result = {
    players,
    generators,
    concurrency,
    askState,
    setUpSeconds,
    connected: total,
    failed,
    stateErrors,
    droppedWhileIdle: dropped,
    errors,
    connectSeconds,
    connectsPerSecond: Math.round(total / connectSeconds),
    connectCorePercent: { service: serviceCpu, generators: generatorCpu },
    // The worst generator's state latency: percentiles of separate processes do not add up.
    stateMsWorstGenerator: stateSamples.reduce((a, b) => (b.p99 > a.p99 ? b : a)),
    serviceRssMb: { atStart: rssAtStart, before: rssBefore, idle: rssIdle, settled: rssSettled },
    rssPerPlayerKb: { idle: perPlayerKb(rssIdle), settled: perPlayerKb(rssSettled) },
    // Live JS objects per player after a full GC: what the connections keep, without the allocator's slack.
    heapPerPlayerKb: total > 0 ? Math.round(((settled.heapUsedMb - before.heapUsedMb) * 1024) / total) : null,
    serviceHeapMb: { before, settled },
    targetMb: TARGET_MB,
    targetMet: total === players && rssSettled <= TARGET_MB && rssIdle <= TARGET_MB,
    generatorRssMb: connected.map((c) => c.rssMb),
    openFilesLimit: { service: serviceFiles, generators: clientFiles },
    loadAverage: loadAverage(),
  };
  const heap = (s: ProbeSnapshot) =>
    `${s.heapUsedMb} / ${s.heapTotalMb} / ${s.externalMb} / ${s.arrayBuffersMb}`;
  report('idle-connections', command, result, {
    connected: `${total} / ${players}`,
    'failed / state errors / dropped': `${failed} / ${stateErrors} / ${dropped}`,
    'connect time s (connects/s)': `${connectSeconds} (${result.connectsPerSecond})`,
    'CPU % while connecting: service / generators': `${serviceCpu} / ${generatorCpu.join(' + ')}`,
    'state p50/p95/p99 ms (worst generator)': triple(result.stateMsWorstGenerator),
    'service RSS MB: start / before / idle / settled': `${rssAtStart} / ${rssBefore} / ${rssIdle} / ${rssSettled}`,
    'RSS per player KB: idle / settled': `${result.rssPerPlayerKb.idle} / ${result.rssPerPlayerKb.settled}`,
    'heap used per player KB (after GC)': result.heapPerPlayerKb,
    'heap used / total / external / arrayBuffers MB before': heap(before),
    'heap used / total / external / arrayBuffers MB settled': heap(settled),
    [`target: ≤ ${TARGET_MB} MB`]: result.targetMet ? 'met' : 'MISSED',
    'generator RSS MB': result.generatorRssMb.join(' / '),
    'session set-up s': setUpSeconds,
    'load average': result.loadAverage,
  });
  for (const [reason, n] of Object.entries(errors)) log(`error x${n}: ${reason}`);
  process.exitCode = total === players && stateErrors === 0 && dropped === 0 ? 0 : 1;
} finally {
  await Promise.all(clients.map((client) => client.stop()));
  await stopProcess(service, 15_000);
  rmSync(dataDir, { recursive: true, force: true });
}
