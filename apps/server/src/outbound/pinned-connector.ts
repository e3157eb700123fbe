import { Agent, buildConnector } from 'undici';
import { type OutboundPolicy, resolveChecked } from './host-resolution.ts';
import { OutboundRefusedError } from './outbound-refusal.ts';

/**
 * Connections that go only where the outbound policy allows: the host is resolved once per
 * connection, every answer is checked, and the socket is opened to a checked address (never to
 * a name the system would resolve again), so DNS rebinding between the check and the connect
 * cannot get round the policy. Redirects are the callers' business: neither client follows them.
 */

/** Worth trying the host's next address: this one did not take the connection. */
const NEXT_ADDRESS_CODES = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

export function createPinnedConnector(
  policy: OutboundPolicy,
  options: { timeoutMs?: number } = {},
): buildConnector.connector {
  const connectTo = buildConnector({
    ...(options.timeoutMs !== undefined && { timeout: options.timeoutMs }),
  });
  return (params, callback) => {
    // undici passes IPv6 literals without brackets; `host` (name:port) stays the original, so TLS
    // still sends the name as SNI and checks the certificate against it.
    void resolveChecked(params.hostname, policy.lookup, policy.allowPrivate()).then(
      (resolution) => {
        if (!resolution.ok) {
          callback(new OutboundRefusedError(resolution.reason), null);
          return;
        }
        const tryFrom = (index: number) => {
          connectTo({ ...params, hostname: resolution.addresses[index] as string }, (...answer) => {
            const [error] = answer;
            const code = (error as { code?: unknown } | null)?.code;
            const next = index + 1;
            if (error && next < resolution.addresses.length && NEXT_ADDRESS_CODES.has(String(code))) {
              tryFrom(next);
            } else callback(...answer);
          });
        };
        tryFrom(0);
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    );
  };
}

/** An undici Agent (one pool per origin) whose every connection goes through the policy. */
export function createPinnedAgent(policy: OutboundPolicy): Agent {
  return new Agent({ connect: createPinnedConnector(policy) });
}
