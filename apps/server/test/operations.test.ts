import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoInfo, setUpDemo } from '../src/demo/setup.ts';
import { createLogger } from '../src/logger.ts';
import { LOCAL_INTEGRATION, startTestServer, type TestServer, type TokenSet } from './harness.ts';
import { connectPlayer, eventually, registerWebhook } from './play-fixtures.ts';
import { startTestOperator, type TestOperator } from './test-operator.ts';

let server: TestServer;
let operator: TestOperator;
let demo: DemoInfo;
let tokens: TokenSet;
const lines: Record<string, unknown>[] = [];

beforeAll(async () => {
  operator = await startTestOperator();
  server = await startTestServer({
    env: LOCAL_INTEGRATION,
    deps: { logger: createLogger('debug', (line) => lines.push(JSON.parse(line))) },
  });
  const created = await setUpDemo(server.running.app.services, server.deps, undefined);
  if (!created) throw new Error('expected a demo set-up on an empty database');
  demo = created;
  tokens = (await server.call('POST', '/v1/auth/login', { body: { apiKey: demo.apiKey } })).body.data;
});
afterAll(async () => {
  await server.close();
  await operator.close();
});

const metricsText = async () => (await fetch(`${server.url}/metrics`)).text();
/** The value of one sample of the exposition text, e.g. `raspa_rounds_opened_total`. */
const sample = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};
const accessLines = () => lines.filter((line) => line.msg === 'request');

describe('request logging', () => {
  it('logs exactly one access line per request, with the route pattern, status and duration, never the query', async () => {
    const before = accessLines().length;
    const game = await server.call('GET', `/v1/game/${demo.game.gameId}/pools?secret=nope`, {
      token: tokens,
    });
    expect(game.status).toBe(200);
    await eventually(() => accessLines().length === before + 1);
    const line = accessLines().at(-1);
    expect(line).toMatchObject({ level: 'info', method: 'GET', route: '/v1/game/:id/pools', status: 200 });
    expect(typeof line?.ms).toBe('number');
    expect(JSON.stringify(line)).not.toContain(demo.game.gameId);
    expect(JSON.stringify(line)).not.toContain('nope');
  });

  it('names an unmatched path by a constant, not by the path', async () => {
    const before = accessLines().length;
    expect((await fetch(`${server.url}/no/such/${demo.game.gameId}`)).status).toBe(404);
    await eventually(() => accessLines().length === before + 1);
    expect(accessLines().at(-1)).toMatchObject({ route: '(unmatched)', status: 404 });
  });

  it('names the route of a request refused by its guard', async () => {
    const before = accessLines().length;
    expect((await fetch(`${server.url}/v1/game/${demo.game.gameId}/pools`)).status).toBe(401);
    await eventually(() => accessLines().length === before + 1);
    expect(accessLines().at(-1)).toMatchObject({ route: '/v1/game/:id/pools', status: 401 });
  });

  it('keeps a sane x-request-id, replaces an odd one, echoes it, and puts it on every line of the request', async () => {
    const kept = await fetch(`${server.url}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'edge-42.a' },
      body: JSON.stringify({ apiKey: demo.apiKey }),
    });
    expect(kept.headers.get('x-request-id')).toBe('edge-42.a');
    await eventually(() => accessLines().some((line) => line.reqId === 'edge-42.a'));
    expect(lines.filter((line) => line.reqId === 'edge-42.a')).toHaveLength(1);

    const odd = await fetch(`${server.url}/health`, { headers: { 'x-request-id': 'no spaces <script>' } });
    const given = odd.headers.get('x-request-id');
    expect(given).toMatch(/^[A-Za-z0-9._:-]+$/);
    await eventually(() => accessLines().some((line) => line.reqId === given));
  });

  it('tags the socket handlers’ lines with the session, never the token, and logs no level before the close', async () => {
    const token = new URL(demo.game.gameUrl).searchParams.get('token') ?? '';
    const player = await connectPlayer(server.url, token);
    const bought = await player.ask('buy');
    if (!bought.ok) throw new Error(JSON.stringify(bought));
    const opened = lines.find((line) => line.msg === 'round opened');
    expect(opened).toMatchObject({ sessionId: demo.game.sessionId, roundId: bought.data.round.roundId });
    expect(opened).not.toHaveProperty('level', expect.any(Number));
    expect(Object.keys(opened ?? {})).not.toContain('prize');
    await player.ask('reveal', { roundId: bought.data.round.roundId });
    player.close();
    for (const line of lines) expect(JSON.stringify(line)).not.toContain(token);
  });
});

describe('GET /metrics', () => {
  it('counts rounds, play and wallet latency, webhooks, pools and HTTP requests', async () => {
    await registerWebhook(server.call, tokens, operator.webhookUrl);
    const before = await metricsText();
    const opened = sample(before, 'raspa_rounds_opened_total') ?? 0;
    const token = new URL(demo.game.gameUrl).searchParams.get('token') ?? '';
    const player = await connectPlayer(server.url, token);
    const bought = await player.ask('buy');
    if (!bought.ok) throw new Error(JSON.stringify(bought));
    await player.ask('reveal', { roundId: bought.data.round.roundId });
    player.close();
    await eventually(() => operator.events.some((e) => e.event === 'close-round'));

    const response = await fetch(`${server.url}/metrics`);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    expect(sample(text, 'raspa_rounds_opened_total')).toBe(opened + 1);
    const outcome = bought.data.round.prize > 0 ? 'won' : 'lost';
    expect(sample(text, `raspa_rounds_total{outcome="${outcome}"}`)).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'raspa_play_duration_seconds_count{action="buy",result="ok"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'raspa_play_duration_seconds_count{action="reveal",result="ok"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'raspa_wallet_calls_total{operation="bet",result="ok",wallet="demo"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(text).toContain('raspa_wallet_call_duration_seconds_bucket{le="0.005",operation="bet"');
    await eventually(async () => {
      const now = await metricsText();
      return (
        (sample(now, 'raspa_webhook_deliveries_total{result="delivered"}') ?? 0) >= 2 &&
        sample(now, 'raspa_webhook_backlog_events') === 0
      );
    });
    const after = await metricsText();
    expect(sample(after, 'raspa_webhook_delivery_lag_seconds_count')).toBeGreaterThanOrEqual(2);
    expect(sample(after, 'raspa_webhook_oldest_queued_age_seconds')).toBe(0);
    const series = `{game_id="${demo.game.gameId}",game_model="oxe-ganhei"}`;
    const left = sample(after, `raspa_pool_tickets_left${series}`);
    expect(sample(after, `raspa_pool_tickets${series}`)).toBe(1_000_000);
    expect(left).toBeLessThan(1_000_000);
    expect(after).toMatch(
      /raspa_http_requests_total\{method="GET",route="\/v1\/game\/:id\/pools",status="200"\} \d+/,
    );
    expect(after).toContain('raspa_http_request_duration_seconds_bucket');
    expect(after).toContain('process_cpu_user_seconds_total');
    expect(after).toContain('nodejs_eventloop_lag_seconds');
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  it('wants the bearer token', async () => {
    const guarded = await startTestServer({ env: { METRICS_TOKEN: 'metrics-token-0123456789' } });
    try {
      const without = await fetch(`${guarded.url}/metrics`);
      expect(without.status).toBe(401);
      expect(await without.json()).toMatchObject({ status: 'error', code: 'UNAUTHORIZED' });
      const wrong = await fetch(`${guarded.url}/metrics`, { headers: { authorization: 'Bearer nope' } });
      expect(wrong.status).toBe(401);
      const right = await fetch(`${guarded.url}/metrics`, {
        headers: { authorization: 'Bearer metrics-token-0123456789' },
      });
      expect(right.status).toBe(200);
      expect(await right.text()).toContain('raspa_rounds_opened_total');
    } finally {
      await guarded.close();
    }
  });
});

describe('GET /ready', () => {
  it('answers 200 while the instance can serve, and 503 with the error envelope once it is stopping', async () => {
    const other = await startTestServer();
    try {
      const ready = await fetch(`${other.url}/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ok' });
      other.running.app.readiness.stopping();
      const stopping = await fetch(`${other.url}/ready`);
      expect(stopping.status).toBe(503);
      expect(await stopping.json()).toMatchObject({
        status: 'error',
        code: 'SERVICE_UNAVAILABLE',
        messages: [expect.stringContaining('shutting down')],
      });
      expect((await fetch(`${other.url}/health`)).status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('answers 503 when the database does not answer or lacks a migration', async () => {
    const { store } = server.deps;
    expect(await store.ops.health()).toEqual({ ok: true });
    const { createOpsRepo } = await import('../src/store/repos/ops-repo.ts');
    const { openDatabase } = await import('../src/store/sqlite/database.ts');
    const { createSqliteExec } = await import('../src/store/sqlite/exec.ts');
    const { closedHealth } = await import('../src/store/sqlite/sqlite-store.ts');
    const db = openDatabase(':memory:');
    const x = createSqliteExec(db);
    expect(await createOpsRepo(x, ['999_not_shipped.sql'], closedHealth(db)).health()).toEqual({
      ok: false,
      reason: 'migrations not applied: 999_not_shipped.sql',
    });
    const closed = createOpsRepo(x, [], closedHealth(db));
    db.close();
    expect(await closed.health()).toMatchObject({ ok: false });
  });
});
