import type { Dispatcher } from 'undici';

/** One POST of the wallet bridge, as the HTTP wallet hands it to its transport. */
export interface WalletRequest {
  /** Parsed once per wallet and call, not once per round. */
  url: URL;
  headers: Record<string, string>;
  body: string;
  signal: AbortSignal;
}

/** The answer's status line and its body, not read yet (the wallet caps what it reads). */
export interface WalletResponse {
  status: number;
  body: AsyncIterable<Uint8Array> | null;
}

/** How the HTTP wallet reaches the operator. It never follows a redirect: a 3xx is an answer. */
export type WalletTransport = (request: WalletRequest) => Promise<WalletResponse>;

/** The slice of fetch a transport uses (the global one, or a test's). */
export type WalletFetch = (
  url: string,
  init: {
    method: 'POST';
    headers: Record<string, string>;
    body: string;
    redirect: 'manual';
    signal: AbortSignal;
  },
) => Promise<{ status: number; body: ReadableStream<Uint8Array> | null }>;

/**
 * Through fetch: what the wallet-check command uses, so a one-off check does not load undici.
 * Node's ReadableStream is async-iterable, so the body reads like a dispatcher's.
 */
export function fetchTransport(
  fetchImpl: WalletFetch = globalThis.fetch as unknown as WalletFetch,
): WalletTransport {
  return async ({ url, headers, body, signal }) => {
    const response = await fetchImpl(url.href, { method: 'POST', headers, body, redirect: 'manual', signal });
    return { status: response.status, body: response.body as AsyncIterable<Uint8Array> | null };
  };
}

/**
 * Through an undici dispatcher's `request`, what the service uses on every round: no WHATWG
 * Request/Response/stream objects per call, which made fetch the wallet's largest cost in the
 * play-loop profile. The dispatcher is the pinned agent, so the outbound policy still decides
 * where each connection goes.
 */
export function dispatcherTransport(dispatcher: Dispatcher): WalletTransport {
  return async ({ url, headers, body, signal }) => {
    const answer = await dispatcher.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      headers,
      body,
      signal,
    });
    return { status: answer.statusCode, body: answer.body };
  };
}
