import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.ts';
import { databaseSnapshots } from './database-snapshot.ts';
import { startTestServer, type TestServer } from './harness.ts';

/**
 * Everything the database holds, as text: on SQLite the file's bytes and its WAL (freed pages
 * too); on PostgreSQL, whose files are the cluster's, every row of every table.
 */
async function storedText(server: TestServer): Promise<string> {
  if (!server.config.DATABASE_URL) {
    const { readFileSync } = await import('node:fs');
    const db = server.dataDir;
    return (
      readFileSync(`${db}/raspa.sqlite`).toString('latin1') +
      readFileSync(`${db}/raspa.sqlite-wal`).toString('latin1')
    );
  }
  const snapshots = await databaseSnapshots(server, new Set());
  try {
    return await snapshots.text();
  } finally {
    await snapshots.close();
  }
}

let server: TestServer;
const lines: string[] = [];
beforeAll(async () => {
  server = await startTestServer({ deps: { logger: createLogger('info', (line) => lines.push(line)) } });
});
afterAll(() => server.close());

describe('POST /v1/auth/login', () => {
  it('exchanges an API key for a token set that expires after TOKEN_TTL', async () => {
    const { apiKey } = await server.newClient();
    const answer = await server.call('POST', '/v1/auth/login', { body: { apiKey } });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      status: 'success',
      data: {
        accessToken: expect.any(String),
        signatureToken: expect.any(String),
        expireAt: '2026-03-01T14:00:00.000Z',
      },
    });
    // ≥ 256 bits of randomness, base64url
    expect(answer.body.data.accessToken).toMatch(/^[\w-]{43}$/);
    expect(answer.body.data.signatureToken).not.toBe(answer.body.data.accessToken);
  });

  it('refuses an unknown key with 401 UNAUTHORIZED, logged with the address and never the key', async () => {
    const answer = await server.call('POST', '/v1/auth/login', { body: { apiKey: 'rsp_not-a-key' } });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ status: 'error', code: 'UNAUTHORIZED', messages: ['apiKey is not valid'] });
    // It names no API client, so no client's audit log can hold it: the service's log does.
    const refused = lines
      .map((line) => JSON.parse(line))
      .filter((entry) => /apiKey login refused/.test(entry.msg));
    expect(refused).toEqual([
      expect.objectContaining({
        level: 'warn',
        ip: expect.stringMatching(/127\.0\.0\.1/),
        reqId: expect.any(String),
      }),
    ]);
    expect(lines.join('\n')).not.toContain('rsp_not-a-key');
  });

  it('writes each login to the client’s audit log, with its address', async () => {
    const { apiKey, tokens } = await server.newClient();
    await server.call('POST', '/v1/auth/login', { body: { apiKey } });
    const audit = await server.call('GET', '/v1/audit', { token: tokens });
    expect(audit.body.data).toEqual([
      expect.objectContaining({ actor: 'apiKey', operation: 'POST /v1/auth/login', targetId: null }),
      expect.objectContaining({ actor: 'apiKey', operation: 'POST /v1/auth/login', targetId: null }),
    ]);
    for (const entry of audit.body.data) expect(entry.ip).toMatch(/127\.0\.0\.1/);
  });

  it.each([
    [{}, 'apiKey is required'],
    [{ apiKey: 5 }, 'apiKey: must be a string'],
    [{ apiKey: '' }, 'apiKey: must not be empty'],
  ])('validates %o', async (body, message) => {
    const answer = await server.call('POST', '/v1/auth/login', { body });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ status: 'error', code: 'VALIDATION_ERROR', messages: [message] });
  });

  it('answers malformed and oversized JSON with the envelope, not a crash', async () => {
    const malformed = await server.call('POST', '/v1/auth/login', { raw: '{"apiKey":' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({
      status: 'error',
      code: 'VALIDATION_ERROR',
      messages: ['body: is not valid JSON'],
    });
    const huge = await server.call('POST', '/v1/auth/login', { body: { apiKey: 'x'.repeat(110 * 1024) } });
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({ status: 'error', code: 'PAYLOAD_TOO_LARGE' });
  });
});

describe('bearer tokens', () => {
  it('are refused when missing, unknown or expired', async () => {
    const { tokens } = await server.newClient();
    expect((await server.call('GET', '/v1/profile', { token: tokens })).status).toBe(200);
    expect(await server.call('GET', '/v1/profile')).toMatchObject({
      status: 401,
      body: { code: 'UNAUTHORIZED' },
    });
    expect(await server.call('GET', '/v1/profile', { token: 'nope' })).toMatchObject({
      status: 401,
      body: { messages: ['the access token is unknown or has expired; log in again'] },
    });
    server.clock.advance(2 * 3600 * 1000 + 1);
    expect(await server.call('GET', '/v1/profile', { token: tokens })).toMatchObject({ status: 401 });
  });

  it('never stores a token or key in the clear', async () => {
    const { apiKey, tokens } = await server.newClient();
    const file = await storedText(server);
    expect(file).not.toContain(apiKey);
    expect(file).not.toContain(tokens.accessToken);
    expect(file).not.toContain(tokens.signatureToken);
  });
});

describe('unknown routes', () => {
  it('answer 404 with the envelope', async () => {
    expect(await server.call('GET', '/v1/nothing-here')).toMatchObject({
      status: 404,
      body: { status: 'error', code: 'NOT_FOUND', messages: ['no operation GET /v1/nothing-here'] },
    });
  });

  it('GET /health answers ok', async () => {
    expect(await server.call('GET', '/health')).toMatchObject({ status: 200, body: { status: 'ok' } });
  });
});
