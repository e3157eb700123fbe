import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { forkChild } from './kit/child.ts';
import { corePercent, cpuSeconds } from './kit/cpu.ts';
import { loadAverage } from './kit/machine.ts';
import { report } from './kit/report.ts';
import { type Latency, triple } from './kit/stats.ts';
import { within } from './kit/within.ts';

/**
 * Baselines: what this machine does at all, so every play figure is also a ratio. (a) A bare
 * Socket.IO request/acknowledge loop: a server process with nothing behind the event and a load
 * generator process with N clients. (b) A bare Express 5 JSON GET loaded with autocannon. (c) The
 * other side of (b): the CPU an undici client spends per small JSON POST it sends, as the service
 * sends each wallet call and webhook (a round sends about 3.5).
 * Everything on 127.0.0.1; every process is bounded in time and stopped in `finally`.
 */
const { values } = parseArgs({
  options: {
    players: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '20' },
  },
});
const players = Number(values.players);
const seconds = Number(values.seconds);
const connections = Number(values.connections);
if (![players, connections].every((n) => Number.isInteger(n) && n > 0) || !(seconds > 0)) {
  console.error('usage: pnpm bench:baselines [--players N] [--seconds D] [--connections C]');
  process.exit(2);
}
const command = `pnpm bench:baselines --players ${players} --seconds ${seconds} --connections ${connections}`;
const START_LIMIT_MS = 30_000;
// The run itself, plus connecting, plus the last emits' 5 s time-out.
const RUN_LIMIT_MS = seconds * 1000 + 60_000;

interface AckRun {
  acks: number;
  elapsed: number;
  latencyMs: Latency;
  errors: number;
}

async function socketBaseline() {
  const server = forkChild(new URL('./baselines/socket-server.ts', import.meta.url));
  const load = forkChild(new URL('./baselines/ack-load.ts', import.meta.url));
  try {
    const { port } = await within(server.ask<{ port: number }>('port'), START_LIMIT_MS, 'socket server');
    const { connectMs } = await within(
      load.ask<{ connectMs: number }>('connect', { url: `http://127.0.0.1:${port}`, players }),
      START_LIMIT_MS + players * 100,
      'connecting the clients',
    );
    const cpu = { server: cpuSeconds(server.process.pid), load: cpuSeconds(load.process.pid) };
    const run = await within(load.ask<AckRun>('run', { seconds }), RUN_LIMIT_MS, 'the ack loop');
    return {
      players,
      connectMs,
      seconds: Math.round(run.elapsed * 100) / 100,
      acks: run.acks,
      acksPerSecond: Math.round(run.acks / run.elapsed),
      latencyMs: run.latencyMs,
      errors: run.errors,
      serverCorePercent: corePercent(cpu.server, cpuSeconds(server.process.pid), run.elapsed),
      loadCorePercent: corePercent(cpu.load, cpuSeconds(load.process.pid), run.elapsed),
    };
  } finally {
    await load.stop();
    await server.stop();
  }
}

async function expressBaseline() {
  const server = forkChild(new URL('./baselines/express-server.ts', import.meta.url));
  try {
    const { port } = await within(server.ask<{ port: number }>('port'), START_LIMIT_MS, 'express server');
    const cpuBefore = cpuSeconds(server.process.pid);
    // autocannon runs here, in the orchestrator: its own process, apart from the server.
    const result = await autocannon({ url: `http://127.0.0.1:${port}/json`, connections, duration: seconds });
    return {
      connections,
      seconds: result.duration,
      requests: result.requests.total,
      requestsPerSecond: Math.round(result.requests.average),
      latencyMs: { p50: result.latency.p50, p97_5: result.latency.p97_5, p99: result.latency.p99 },
      errors: result.errors + result.non2xx,
      serverCorePercent: corePercent(cpuBefore, cpuSeconds(server.process.pid), result.duration),
    };
  } finally {
    await server.stop();
  }
}

interface ClientRun {
  requests: number;
  elapsed: number;
  latencyMs: Latency;
  errors: number;
  cpuSeconds: number;
}

async function clientBaseline() {
  const server = forkChild(new URL('./baselines/express-server.ts', import.meta.url));
  const client = forkChild(new URL('./baselines/http-client-load.ts', import.meta.url));
  try {
    const { port } = await within(server.ask<{ port: number }>('port'), START_LIMIT_MS, 'express server');
    const run = await within(
      client.ask<ClientRun>('run', { url: `http://127.0.0.1:${port}/json`, connections, seconds }),
      RUN_LIMIT_MS,
      'the outgoing requests',
    );
    return {
      connections,
      seconds: Math.round(run.elapsed * 100) / 100,
      requests: run.requests,
      requestsPerSecond: Math.round(run.requests / run.elapsed),
      latencyMs: run.latencyMs,
      errors: run.errors,
      clientCpuMsPerRequest: Math.round((run.cpuSeconds / Math.max(1, run.requests)) * 1e6) / 1000,
    };
  } finally {
    await client.stop();
    await server.stop();
  }
}

const loadBefore = loadAverage();
const socket = await socketBaseline();
const express = await expressBaseline();
const client = await clientBaseline();
report(
  'baselines',
  command,
  { socket, express, client, loadAverageBefore: loadBefore, loadAverageAfter: loadAverage() },
  {
    'socket.io acks/s': socket.acksPerSecond,
    'socket.io ack p50/p95/p99 ms': triple(socket.latencyMs),
    'socket.io errors': socket.errors,
    'socket.io server / load CPU %': `${socket.serverCorePercent} / ${socket.loadCorePercent}`,
    'express req/s': express.requestsPerSecond,
    'express p50/p97.5/p99 ms': `${express.latencyMs.p50} / ${express.latencyMs.p97_5} / ${express.latencyMs.p99}`,
    'express errors': express.errors,
    'express server CPU %': express.serverCorePercent,
    'undici POSTs/s': client.requestsPerSecond,
    'undici client CPU ms per request': client.clientCpuMsPerRequest,
    'undici errors': client.errors,
    'load average before / after': `${loadBefore} / ${loadAverage()}`,
  },
);
process.exitCode = socket.errors === 0 && express.errors === 0 && client.errors === 0 ? 0 : 1;
