import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('GET /v1/openapi.json', () => {
  it('documents every operation the app serves, from the same route definitions', async () => {
    const answer = await server.call('GET', '/v1/openapi.json');
    expect(answer.status).toBe(200);
    const document = answer.body;
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: server.url }]);
    const documented = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const served = server.running.app.routes.map(
      (route) => `${route.method.toUpperCase()} /v1${route.path.replace(/:(\w+)/g, '{$1}')}`,
    );
    expect(documented.sort()).toEqual(served.sort());
    expect(served).toContain('POST /v1/auth/login');
  });

  it('describes the login body, the error envelope, bearer auth and the signature header', async () => {
    const document = (await server.call('GET', '/v1/openapi.json')).body;
    const login = document.paths['/v1/auth/login'].post;
    expect(login.requestBody.content['application/json'].schema).toMatchObject({
      type: 'object',
      properties: { apiKey: { type: 'string' } },
      required: ['apiKey'],
    });
    expect(login.responses['401'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Error',
    });
    expect(document.components.schemas.Error.properties.code.enum).toContain('INVALID_SIGNATURE');
    expect(document.components.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer' });
    const createProfile = document.paths['/v1/profile'].post;
    expect(createProfile.security).toEqual([{ bearer: [] }]);
    expect(createProfile.parameters).toContainEqual(
      expect.objectContaining({ in: 'header', name: 'x-signed-request', required: true }),
    );
    const readProfile = document.paths['/v1/profile/{profileId}'].get;
    expect(readProfile.parameters).toContainEqual(expect.objectContaining({ in: 'path', name: 'profileId' }));
  });

  it('gives each list’s status filter the statuses of its own records', async () => {
    const document = (await server.call('GET', '/v1/openapi.json')).body;
    const statusOf = (path: string) => {
      const parameter = document.paths[path].get.parameters.find((each: any) => each.name === 'status');
      const schema = parameter?.schema ?? {};
      const ref = schema.$ref ?? schema.allOf?.[0]?.$ref;
      return (ref ? document.components.schemas[ref.split('/').at(-1)] : schema).enum;
    };
    expect(statusOf('/v1/round')).toEqual(['pending', 'open', 'closing', 'closed', 'declined', 'voided']);
    expect(statusOf('/v1/transaction')).toEqual(['pending', 'completed', 'declined', 'failed']);
    // A round's card is described (the layout the page draws), not left as any value.
    const card = document.components.schemas.RoundDetail.properties.card.anyOf[0];
    expect(Object.keys(card.properties)).toEqual(expect.arrayContaining(['model', 'cells', 'winningCells']));
  });
});

describe('GET /docs', () => {
  it('serves a readable page and its assets from local files', async () => {
    const page = await fetch(`${server.url}/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<div id="swagger-ui">');
    // nothing fetched from outside: every script and stylesheet is served here
    expect(html).not.toMatch(/(src|href)="https?:/);
    for (const asset of [
      '/docs/assets/swagger-ui-bundle.js',
      '/docs/assets/swagger-ui.css',
      '/docs/signing.js',
    ]) {
      const response = await fetch(`${server.url}${asset}`);
      expect(response.status, asset).toBe(200);
      expect((await response.text()).length).toBeGreaterThan(100);
    }
    expect(await (await fetch(`${server.url}/docs/signing.js`)).text()).toContain("url: '/v1/openapi.json'");
  });
});
