import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.ts';

/**
 * docs/contract.md §11: POST /v1/auth/rotate-key replaces the apiKey (the old one logs in no more),
 * and GET /v1/audit lists every write through the API that changed something: who, what, when,
 * from where.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('POST /v1/auth/rotate-key', () => {
  it('answers a new key once; the old key logs in no more (401) and its token sets stop working', async () => {
    const client = await server.newClient();
    const rotated = await server.call('POST', '/v1/auth/rotate-key', { token: client.tokens, body: {} });
    expect(rotated.status).toBe(200);
    const { apiKey } = rotated.body.data;
    expect(typeof apiKey).toBe('string');
    expect(apiKey).not.toBe(client.apiKey);

    const old = await server.call('POST', '/v1/auth/login', { body: { apiKey: client.apiKey } });
    expect(old.status).toBe(401);
    expect(old.body.code).toBe('UNAUTHORIZED');
    const oldSession = await server.call('GET', '/v1/profile', { token: client.tokens });
    expect(oldSession.status).toBe(401);

    const fresh = await server.call('POST', '/v1/auth/login', { body: { apiKey } });
    expect(fresh.status).toBe(200);
    const works = await server.call('GET', '/v1/profile', { token: fresh.body.data });
    expect(works.status).toBe(200);
  });

  it('is signed like every POST: without the signature it is a 401 and the key is unchanged', async () => {
    const client = await server.newClient();
    const unsigned = await server.call('POST', '/v1/auth/rotate-key', {
      token: client.tokens,
      body: {},
      sign: false,
    });
    expect(unsigned.status).toBe(401);
    expect(unsigned.body.code).toBe('INVALID_SIGNATURE');
    const login = await server.call('POST', '/v1/auth/login', { body: { apiKey: client.apiKey } });
    expect(login.status).toBe(200);
  });
});

describe('POST /v1/auth/logout', () => {
  it('ends this token set at once, the others stay; it is in the audit log', async () => {
    const client = await server.newClient();
    const other = (await server.call('POST', '/v1/auth/login', { body: { apiKey: client.apiKey } })).body
      .data;
    const panel = await server.running.app.services.auth.issueTokenSet(client.clientId, 'panel');

    const out = await server.call('POST', '/v1/auth/logout', { token: panel, body: {} });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({
      status: 'success',
      messages: ['Signed out: this token set no longer works.'],
    });
    expect((await server.call('GET', '/v1/profile', { token: panel })).status).toBe(401);
    const signed = await server.call('POST', '/v1/profile', {
      token: panel,
      body: { name: 'x', type: 'demo' },
    });
    expect(signed.status).toBe(401);
    expect((await server.call('POST', '/v1/auth/logout', { token: panel, body: {} })).status).toBe(401);
    expect((await server.call('POST', '/v1/auth/logout', { body: {} })).status).toBe(401);

    expect((await server.call('GET', '/v1/profile', { token: client.tokens })).status).toBe(200);
    const audit = await server.call('GET', '/v1/audit', { token: other });
    expect(audit.body.data.map((entry: any) => [entry.actor, entry.operation])).toEqual([
      ['panel', 'POST /v1/auth/logout'],
      ['apiKey', 'POST /v1/auth/login'], // the second token set's
      ['apiKey', 'POST /v1/auth/login'], // newClient's
    ]);
  });
});

describe('GET /v1/audit', () => {
  it('lists every write that changed something, newest first, with who, what, target, when and IP', async () => {
    const client = await server.newClient();
    const token = client.tokens;
    const t0 = server.clock().getTime();
    const iso = (seconds: number) => new Date(t0 + seconds * 1000).toISOString();
    const profile = await server.call('POST', '/v1/profile', {
      token,
      body: { name: 'Audited', type: 'demo' },
    });
    expect(profile.status).toBe(201);
    const profileId = profile.body.data.profileId;
    server.clock.advance(1000);
    const updated = await server.call('PUT', `/v1/profile/${profileId}`, {
      token,
      body: { name: 'Audited 2', type: 'demo' },
    });
    expect(updated.status).toBe(200);
    server.clock.advance(1000);
    const webhook = await server.call('POST', '/v1/webhook', {
      token,
      body: {
        url: 'https://hooks.example/raspa',
        eventTriggers: ['close-round'],
        signatureToken: randomUUID(),
      },
    });
    expect(webhook.status).toBe(201);
    const webhookId = webhook.body.data.webhookId;
    server.clock.advance(1000);
    expect((await server.call('DELETE', `/v1/webhook/${webhookId}`, { token })).status).toBe(200);
    server.clock.advance(1000);

    // Reads, refused writes and bad input are not entries: they changed nothing.
    await server.call('GET', '/v1/profile', { token });
    const invalid = await server.call('POST', '/v1/profile', { token, body: { name: '', type: 'casino' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe('VALIDATION_ERROR');
    const unsigned = await server.call('POST', '/v1/profile', {
      token,
      body: { name: 'x', type: 'demo' },
      sign: 'ab',
    });
    expect(unsigned.status).toBe(401);
    const gone = await server.call('DELETE', `/v1/webhook/${webhookId}`, { token });
    expect(gone.status).toBe(404);

    const rotated = await server.call('POST', '/v1/auth/rotate-key', { token, body: {} });
    expect(rotated.status).toBe(200);
    const fresh = await server.call('POST', '/v1/auth/login', { body: { apiKey: rotated.body.data.apiKey } });

    const audit = await server.call('GET', '/v1/audit?pageSize=100', { token: fresh.body.data });
    expect(audit.status).toBe(200);
    expect(audit.body.pagination).toEqual({ pageIndex: 1, pageSize: 100, totalCount: 7 });
    const rows = audit.body.data.map(({ id, at, ...rest }: any) => rest);
    const login = {
      actor: 'apiKey',
      operation: 'POST /v1/auth/login',
      targetId: null,
      ip: expect.any(String),
    };
    expect(rows).toEqual([
      login, // with the new key
      {
        actor: 'apiKey',
        operation: 'POST /v1/auth/rotate-key',
        targetId: null,
        ip: expect.stringMatching(/127\.0\.0\.1/),
      },
      {
        actor: 'apiKey',
        operation: 'DELETE /v1/webhook/:webhookId',
        targetId: webhookId,
        ip: expect.any(String),
      },
      { actor: 'apiKey', operation: 'POST /v1/webhook', targetId: webhookId, ip: expect.any(String) },
      {
        actor: 'apiKey',
        operation: 'PUT /v1/profile/:profileId',
        targetId: profileId,
        ip: expect.any(String),
      },
      { actor: 'apiKey', operation: 'POST /v1/profile', targetId: profileId, ip: expect.any(String) },
      login, // newClient's, with the first key
    ]);
    expect(audit.body.data.map((entry: any) => entry.at)).toEqual([
      iso(4),
      iso(4),
      iso(3),
      iso(2),
      iso(1),
      iso(0),
      iso(0),
    ]);
  });

  it('has the game, activation, player and session writes too, each naming its record', async () => {
    const { tokens: token } = await server.newClient();
    const profile = await server.call('POST', '/v1/profile', { token, body: { name: 'Room', type: 'demo' } });
    const profileId = profile.body.data.profileId;
    const game = await server.call('POST', '/v1/game', {
      token,
      body: {
        profileId,
        gameModel: 'oxe-ganhei',
        lang: 'en',
        currency: 'BRL',
        rtp: 0.9,
        sampling: 100_001,
        prizedPercent: 0.3,
        betPrice: 1,
        simulation: false,
        replacePreviousVersion: false,
      },
    });
    const gameId = game.body.data.id;
    const off = await server.call('PUT', `/v1/game/${gameId}`, { token, body: { active: false, profileId } });
    const on = await server.call('PUT', `/v1/game/${gameId}`, { token, body: { active: true, profileId } });
    const user = await server.call('POST', '/v1/user/auth', {
      token,
      body: { profileId, credential: 'ana', credentialType: 'username' },
    });
    const session = await server.call('POST', '/v1/game/session', {
      token,
      body: { userToken: user.body.data.userToken, gameId },
    });
    expect([game, off, on, user, session].map((answer) => answer.status)).toEqual([201, 200, 200, 200, 201]);

    const audit = await server.call('GET', '/v1/audit?pageSize=100', { token });
    expect(audit.body.data.map((entry: any) => [entry.operation, entry.targetId])).toEqual([
      ['POST /v1/game/session', session.body.data.sessionId],
      ['POST /v1/user/auth', user.body.data.userId],
      ['PUT /v1/game/:id', gameId],
      ['PUT /v1/game/:id', gameId],
      ['POST /v1/game', gameId],
      ['POST /v1/profile', profileId],
      ['POST /v1/auth/login', null],
    ]);
  });

  it('tells a panel user from the API key, and shows a client only its own entries', async () => {
    const client = await server.newClient();
    const other = await server.newClient();
    // A panel sign-in's token set, issued as panel-login does (the captcha is tested in panel-auth.test.ts).
    const panel = await server.running.app.services.auth.issueTokenSet(client.clientId, 'panel');
    const created = await server.call('POST', '/v1/profile', {
      token: panel,
      body: { name: 'From the panel', type: 'demo' },
    });
    expect(created.status).toBe(201);
    await server.call('POST', '/v1/profile', { token: other.tokens, body: { name: 'Theirs', type: 'demo' } });

    const mine = await server.call('GET', '/v1/audit', { token: client.tokens });
    expect(mine.body.data).toEqual([
      expect.objectContaining({
        actor: 'panel',
        operation: 'POST /v1/profile',
        targetId: created.body.data.profileId,
      }),
      expect.objectContaining({ actor: 'apiKey', operation: 'POST /v1/auth/login' }),
    ]);
    const bad = await server.call('GET', '/v1/audit?pageSize=1000', { token: client.tokens });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_ERROR');
  });
});
