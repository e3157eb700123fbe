import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TokenSet } from './harness.ts';

let server: TestServer;
let tokens: TokenSet;
let profileId: string;

beforeAll(async () => {
  server = await startTestServer();
  tokens = (await server.newClient()).tokens;
  const profile = await server.call('POST', '/v1/profile', {
    token: tokens,
    body: { name: 'Numbers', type: 'demo', currency: 'BRL' },
  });
  profileId = profile.body.data.profileId;
});
afterAll(() => server.close());

const gameText = (betPrice: string) =>
  `{"profileId":"${profileId}","gameModel":"oxe-ganhei","lang":"pt","currency":"BRL","rtp":0.9,` +
  `"sampling":1000000,"prizedPercent":0.3,"betPrice":${betPrice},"simulation":false,"replacePreviousVersion":false}`;

describe('a body with a number beyond the double range', () => {
  it('is a 400 naming body.betPrice on a signed route, not INVALID_SIGNATURE, and creates nothing', async () => {
    // Any signature: the number is refused before the signature is looked at.
    const answer = await server.call('POST', '/v1/game', {
      token: tokens,
      raw: gameText('1e309'),
      sign: 'ab',
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ status: 'error', code: 'VALIDATION_ERROR' });
    expect(answer.body.messages).toHaveLength(1);
    expect(answer.body.messages[0]).toMatch(/^body\.betPrice: is not a finite number/);
    const games = await server.call('GET', `/v1/game?profileId=${profileId}`, { token: tokens });
    expect(games.body.data).toEqual([]);
  });

  it('names -1e309 nested in arrays and objects, every one of them', async () => {
    const answer = await server.call('PUT', `/v1/profile/${profileId}`, {
      token: tokens,
      raw: '{"name":"x","type":"demo","allowedOrigins":[{"a":-1e309}],"deep":{"list":[1,2,1e400]}}',
      sign: 'ab',
    });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('VALIDATION_ERROR');
    expect(answer.body.messages.map((m: string) => m.split(':')[0])).toEqual([
      'body.allowedOrigins.0.a',
      'body.deep.list.2',
    ]);
  });

  it('is a 400 on an auth route too', async () => {
    const answer = await server.call('POST', '/v1/auth/login', { raw: '{"apiKey":"k","n":[-1e309]}' });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(answer.body.messages[0]).toMatch(/^body\.n\.0: is not a finite number/);
  });

  it('leaves the largest finite numbers to the usual validation and signature', async () => {
    const body = JSON.parse(gameText('1.7976931348623157e308'));
    const answer = await server.call('POST', '/v1/game', { token: tokens, body });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('VALIDATION_ERROR');
    expect(answer.body.messages.join(' ')).not.toMatch(/finite/);
  });
});
