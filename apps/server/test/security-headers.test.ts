import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpDemo } from '../src/demo-setup.ts';
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
