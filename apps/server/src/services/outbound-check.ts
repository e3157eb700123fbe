import type { Deps } from '../deps.ts';
import { checkOutboundUrl, type OutboundPolicy } from '../outbound/host-resolution.ts';
import { ApiError } from './api-error.ts';

/** The outbound policy of a running service: its resolver, and the setting read at each use. */
export function outboundPolicy(deps: Pick<Deps, 'resolveHost' | 'settings'>): OutboundPolicy {
  return { lookup: deps.resolveHost, allowPrivate: () => deps.settings.allowPrivateOutbound };
}

/** Refuses, as a 400 naming `field`, a URL the service must not send requests to. */
export async function requireOutboundUrl(policy: OutboundPolicy, field: string, url: string): Promise<void> {
  const verdict = await checkOutboundUrl(url, policy);
  if (!verdict.ok) throw new ApiError('VALIDATION_ERROR', `${field}: ${verdict.reason}`);
}
