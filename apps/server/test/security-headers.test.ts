import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpDemo } from '../src/demo/setup.ts';
import { startTestServer, type TestServer } from './harness.ts';

let server: TestServer;
let gameUrl: string;

beforeAll(async () => {
  server = await startTestServer();
  const demo = await setUpDemo(server.running.app.services, server.deps, undefined);
  if (!demo) throw new Error('expected a demo set-up on an empty database');
  gameUrl = demo.game.gameUrl.replace(server.deps.settings.publicUrl, server.url);
});
afterAll(() => server.close());

const cspOf = (response: Response) => response.headers.get('content-security-policy') ?? '';

describe('every response carries the security headers, set in one place', () => {
  it.each([
    ['/docs', 200],
    ['/docs/assets/swagger-ui.css', 200],
    ['/docs/assets/swagger-ui-bundle.js', 200],
    ['/docs/signing.js', 200],
    ['/docs/assets/no-such-file.js', 404],
    ['/reset-password?token=abc', 302],
    ['/panel/assets/no-such-file.js', 404],
    ['/v1/openapi.json', 200],
    ['/v1/profile', 401],
    ['/v1/no-such-operation', 404],
    ['/health', 200],
    ['/ready', 200],
    ['/metrics', 200],
    ['/no/such/page', 404],
  ])('GET %s', async (path, status) => {
    const response = await fetch(`${server.url}${path}`, { redirect: 'manual' });
    expect(response.status).toBe(status);
    const csp = cspOf(response);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(response.headers.get('x-powered-by')).toBeNull();
  });

  it('allows no inline script anywhere: the panel and the docs run script files only', async () => {
    const csp = cspOf(await fetch(`${server.url}/panel/`));
    expect(csp).toMatch(/script-src 'self'(;|$)/);
  });

  it('sends reset links of the old address to the panel’s reset page, token and all', async () => {
    const response = await fetch(`${server.url}/reset-password?token=abc`, { redirect: 'manual' });
    expect(response.headers.get('location')).toBe('/panel/reset-password?token=abc');
    // …and new links point at the panel's page themselves (PANEL_URL unset).
    expect(server.deps.settings.panelUrl).toBe(`${server.config.PUBLIC_URL}/panel/reset-password`);
  });

  it('lets Swagger UI load its files, inline styles and data: icons, and call the API', async () => {
    const csp = cspOf(await fetch(`${server.url}/docs`));
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("img-src 'self' data:");
    expect(csp).toMatch(/connect-src 'self'/);
  });
});

describe('the player’s page keeps its own framing rules', () => {
  it('sends its own CSP (frame-ancestors from allowedOrigins), no-referrer and nosniff, and no X-Frame-Options', async () => {
    const response = await fetch(gameUrl);
    const csp = cspOf(response);
    // Its own policy replaces the app-wide one, built page (200) or not (503) alike.
    expect(csp).toContain("worker-src 'self' blob:");
    expect(csp.match(/frame-ancestors/g)).toHaveLength(1);
    expect(csp).toContain(response.status === 200 ? "frame-ancestors 'self'" : "frame-ancestors 'none'");
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBeNull();
  });
});

/** Sends raw bytes on a fresh TCP connection and resolves with all it got back once the server closed it. */
function rawExchange(url: string, ...chunks: string[]): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (data: string) => {
      received += data;
      // The next chunk once the previous one was answered (a keep-alive request, then a bad one).
      if (received.endsWith('}') && chunks.length > 0) socket.write(chunks.shift() as string);
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
    socket.write(chunks.shift() as string);
  });
}

/** A raw HTTP/1.1 answer: its status, headers (lower-case names) and body. */
function parseResponse(raw: string) {
  const [head = '', body = ''] = raw.split('\r\n\r\n', 2);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [
      line.slice(0, line.indexOf(':')).toLowerCase(),
      line.slice(line.indexOf(':') + 1).trim(),
    ]),
  );
  return { status: Number(statusLine.split(' ')[1]), statusLine, headers, body };
}

describe('errors Node raises before Express sees the request (issue 22)', () => {
  const oversized = `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`;

  it.each([
    ['headers over Node’s limit', oversized, 431, 'HEADERS_TOO_LARGE'],
    [
      'a request line over Node’s limit',
      `GET /${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      431,
      'HEADERS_TOO_LARGE',
    ],
    ['a request line that is not HTTP', 'HELLO THERE\r\n\r\n', 400, 'VALIDATION_ERROR'],
    [
      'a header line without a colon',
      'GET /health HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n',
      400,
      'VALIDATION_ERROR',
    ],
  ])(
    '%s: the error envelope, the security headers, Connection: close',
    async (_what, request, status, code) => {
      const raw = await rawExchange(server.url, request);
      const response = parseResponse(raw);
      expect(response.statusLine).toMatch(/^HTTP\/1\.1 \d{3} [A-Za-z ]+$/);
      expect(response.status).toBe(status);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Number(response.headers['content-length'])).toBe(Buffer.byteLength(response.body));
      expect(response.headers.connection).toBe('close');
      const body = JSON.parse(response.body);
      expect(body).toEqual({ status: 'error', code, messages: [expect.any(String)] });
      expect(response.body).not.toMatch(/HPE_|at .*\.js|aaaa/);
      expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expect(response.headers['cross-origin-opener-policy']).toBe('same-origin');
    },
  );

  it('answers the same on a keep-alive connection after an answered request', async () => {
    const raw = await rawExchange(server.url, 'GET /health HTTP/1.1\r\nHost: x\r\n\r\n', oversized);
    const second = raw.indexOf('HTTP/1.1', 1);
    expect(parseResponse(raw.slice(0, second)).status).toBe(200);
    const response = parseResponse(raw.slice(second));
    expect(response.status).toBe(431);
    expect(JSON.parse(response.body).code).toBe('HEADERS_TOO_LARGE');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('still serves requests afterwards', async () => {
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });
});
