import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The operator's site for the browser tests: a page on another origin (http://localhost:port, while
 * the game is on http://127.0.0.1:port) that frames a gameUrl and records every postMessage it gets,
 * with the sender's origin, in `window.__raspaMessages`.
 */
export interface OperatorPage {
  origin: string;
  /** The page framing `gameUrl`. */
  urlFor(gameUrl: string): string;
  close(): Promise<void>;
}

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Casa Lotérica (test operator)</title>
<style>
  html, body { margin: 0; height: 100%; font-family: system-ui, sans-serif; }
  body { display: flex; flex-direction: column; background: #f2f2f2; }
  header { height: 36px; display: flex; align-items: center; padding: 0 12px; background: #222; color: #fff; font-size: 14px; }
  iframe { flex: 1; width: 100%; border: 0; display: block; }
</style></head>
<body><header>Casa Lotérica · test operator</header>
<iframe id="game" title="Raspa" allow="autoplay"></iframe>
<script>
  window.__raspaMessages = [];
  window.addEventListener('message', (event) => {
    window.__raspaMessages.push({ origin: event.origin, data: event.data });
  });
  document.getElementById('game').src = new URLSearchParams(location.search).get('game');
</script></body></html>`;

export async function startOperatorPage(): Promise<OperatorPage> {
  const server: Server = createServer((request, response) => {
    if ((request.url ?? '').startsWith('/casino')) {
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
        .end(PAGE);
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    urlFor: (gameUrl) => `${origin}/casino?game=${encodeURIComponent(gameUrl)}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
