import { classifyAddress } from './address-policy.ts';

/**
 * Whether wallets and webhooks may reach private addresses (docs/contract.md §7), and why: the
 * environment's OUTBOUND_ALLOW_PRIVATE when it is set; otherwise allowed only for the local start
 * (`npm start`, for a wallet or receiver on the integrator's own machine) while the service listens
 * on loopback alone. Once HOST makes the service reachable from other machines, any API client
 * could point a webhook at the operator's private network, so an exposed service refuses them
 * unless the environment says otherwise; the production start refuses them by default wherever it
 * listens (behind a reverse proxy it listens on loopback too).
 */
export type PrivateOutbound =
  | { allow: boolean; because: 'environment' }
  | { allow: true; because: 'local-start-on-loopback' }
  | { allow: false; because: 'local-start-exposed' | 'default' };

export function decidePrivateOutbound(input: {
  /** Where the service listens (HOST). */
  host: string;
  /** OUTBOUND_ALLOW_PRIVATE (or its old name), when the environment sets it. */
  setting: boolean | undefined;
  /** The local demo and integration start (`npm start`, `pnpm serve`: main.ts --local). */
  localStart: boolean;
}): PrivateOutbound {
  if (input.setting !== undefined) return { allow: input.setting, because: 'environment' };
  if (!input.localStart) return { allow: false, because: 'default' };
  return listensOnLoopbackOnly(input.host)
    ? { allow: true, because: 'local-start-on-loopback' }
    : { allow: false, because: 'local-start-exposed' };
}

/**
 * Whether listening on `host` keeps the service to this machine: `localhost` or a loopback address
 * in any notation (127.0.0.0/8, ::1, ::ffff:127.0.0.1). 0.0.0.0, :: and any other address or name
 * may be reachable from elsewhere.
 */
export function listensOnLoopbackOnly(host: string): boolean {
  const bare = host.trim().toLowerCase().replace(/\.$/, '');
  return bare === 'localhost' || classifyAddress(bare) === 'loopback';
}

/** The start's line about it, when there is something to say: the level and the sentence. */
export function privateOutboundNotice(
  decision: PrivateOutbound,
  host: string,
): { level: 'info' | 'warn'; text: string } | undefined {
  switch (decision.because) {
    case 'environment':
      return decision.allow
        ? {
            level: 'warn',
            text: 'OUTBOUND_ALLOW_PRIVATE=true: wallets and webhooks may reach private addresses (local use only)',
          }
        : undefined;
    case 'local-start-on-loopback':
      return {
        level: 'info',
        text:
          `local start listening on ${host} only: wallets and webhooks may reach private addresses ` +
          '(set OUTBOUND_ALLOW_PRIVATE=false to refuse them)',
      };
    case 'local-start-exposed':
      return {
        level: 'warn',
        text:
          `HOST=${host} is reachable from other machines: wallets and webhooks on private addresses are ` +
          'refused; set OUTBOUND_ALLOW_PRIVATE=true to allow them (local integration only, never in production)',
      };
    case 'default':
      return undefined;
  }
}
