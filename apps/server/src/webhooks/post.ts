import { Pool } from 'undici';
import type { OutboundPolicy } from '../outbound/host-resolution.ts';
import { outboundRefusal } from '../outbound/outbound-refusal.ts';
import { createPinnedConnector } from '../outbound/pinned-connector.ts';

/**
 * Posts each attempt: the HTTP side of webhook delivery, a few keep-alive connections per webhook, so a busy webhook
 * has several events in flight (one per connection). Webhooks never share a connection: a slow
 * receiver holds back only its own webhook. (One connection with HTTP/1.1 pipelining was tried
 * first: a Node receiver answers pipelined requests one at a time and the sender reads one answer
 * per event-loop turn, so under load it was no faster than sending them one by one.)
 */
export interface SendResult {
  status: number | null;
  /** The start of the answer's body (at most the configured bytes). */
  body: string;
  /** Why no answer came; null when one did. */
  failure: string | null;
}

export interface WebhookSender {
  /** `line`: whose connection to use (the webhook id). */
  post(line: string, url: string, headers: Record<string, string>, body: string): Promise<SendResult>;
  /** Closes a line's connections (its webhook was deleted or disabled). */
  forget(line: string): void;
  close(): Promise<void>;
}

export interface SenderOptions {
  /** The status line must come within this. */
  timeoutMs: number;
  /** Connections (so requests in flight) per webhook. */
  connections: number;
  /** How much of an answer's body is kept. */
  maxBodyBytes: number;
  /** Where connections may go: each is resolved, checked and pinned to the checked address. */
  policy: OutboundPolicy;
}

/** A receiver that streams this much is cut off: no webhook answer needs it, and it holds the line. */
const MAX_READ_BYTES = 64 * 1024;

/** A network error in a few words, without the URL (it may carry credentials). */
function networkMessage(error: unknown): string {
  const refused = outboundRefusal(error);
  if (refused !== undefined) return `the url was refused: ${refused}`;
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = (cause as { code?: unknown } | null)?.code;
  const text = typeof code === 'string' ? code : cause instanceof Error ? cause.message : String(cause);
  return `could not reach the receiver: ${text}`;
}

export function createWebhookSender(options: SenderOptions): WebhookSender {
  const clients = new Map<string, Pool>();
  const connect = createPinnedConnector(options.policy);

  function clientFor(line: string, origin: string): Pool {
    const key = `${line} ${origin}`;
    let client = clients.get(key);
    if (!client || client.closed || client.destroyed) {
      client = new Pool(origin, {
        connections: options.connections,
        keepAliveTimeout: 10_000,
        connect,
      });
      clients.set(key, client);
    }
    return client;
  }

  /** The first maxBodyBytes of the body, cut on a character boundary; reads on to free the line. */
  async function readStart(stream: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of stream) {
        if (size < options.maxBodyBytes) chunks.push(chunk);
        size += chunk.byteLength;
        if (size > MAX_READ_BYTES) {
          stream.destroy();
          break;
        }
      }
    } catch {
      // keep what came
    }
    // stream: true holds back a multi-byte character cut in half instead of writing U+FFFD.
    return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, options.maxBodyBytes), {
      stream: true,
    });
  }

  return {
    async post(line, url, headers, body) {
      let target: URL;
      try {
        target = new URL(url);
        if (target.username || target.password) throw new Error('credentials in the url');
      } catch (error) {
        return { status: null, body: '', failure: `the url cannot be used: ${(error as Error).message}` };
      }
      // A plain timer: AbortSignal.timeout() costs a transferable object per call (seen in profiles).
      const controller = new AbortController();
      const deadline = setTimeout(() => controller.abort(), options.timeoutMs);
      const { signal } = controller;
      try {
        const answer = await clientFor(line, target.origin).request({
          method: 'POST',
          path: `${target.pathname}${target.search}`,
          headers,
          body,
          signal,
        });
        return { status: answer.statusCode, body: await readStart(answer.body), failure: null };
      } catch (error) {
        return {
          status: null,
          body: '',
          failure: signal.aborted ? `no answer within ${options.timeoutMs} ms` : networkMessage(error),
        };
      } finally {
        clearTimeout(deadline);
      }
    },
    forget(line) {
      for (const [key, client] of clients) {
        if (!key.startsWith(`${line} `)) continue;
        clients.delete(key);
        void client.close().catch(() => client.destroy());
      }
    },
    async close() {
      const open = [...clients.values()];
      clients.clear();
      await Promise.all(open.map((client) => client.close().catch(() => client.destroy())));
    },
  };
}
