import { Pool } from 'undici';
import { serveParent } from '../kit/child.ts';
import { latency } from '../kit/stats.ts';

/**
 * The outgoing-HTTP baseline's client (its own process, so its CPU is its own): `run` keeps
 * `connections` keep-alive connections of one undici Pool busy with small JSON POSTs, as the
 * service's wallet client and webhook sender send theirs, for D seconds, and answers the count, the
 * latency percentiles and its own CPU seconds.
 */
const REQUEST_LIMIT_MS = 5000;
const BODY = JSON.stringify({
  transactionId: '0190b3c2-7d4e-7a1b-9c2d-3e4f5a6b7c8d',
  roundId: '0190b3c2-7d4e-7a1b-9c2d-3e4f5a6b7c8e',
  credential: 'player-0001',
  amount: 2,
  currency: 'BRL',
});
const HEADERS = { 'content-type': 'application/json', 'x-signature': 'a'.repeat(128) };

serveParent(async (type, body) => {
  if (type !== 'run') throw new Error(`unknown request ${type}`);
  const url = new URL(String(body.url));
  const connections = Number(body.connections);
  const pool = new Pool(url.origin, { connections });
  const samples: number[] = [];
  let errors = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const deadline = Date.now() + Number(body.seconds) * 1000;
  const loop = async () => {
    while (Date.now() < deadline) {
      const start = performance.now();
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), REQUEST_LIMIT_MS);
      try {
        const answer = await pool.request({
          method: 'POST',
          path: url.pathname,
          headers: HEADERS,
          body: BODY,
          signal: controller.signal,
        });
        await answer.body.text();
        if (answer.statusCode === 200) samples.push(performance.now() - start);
        else errors++;
      } catch {
        errors++;
      } finally {
        clearTimeout(timer);
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  await pool.close();
  return {
    requests: samples.length,
    elapsed,
    latencyMs: latency(samples),
    errors,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
  };
});
