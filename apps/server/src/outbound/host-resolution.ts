import { lookup } from 'node:dns/promises';
import { judgeHost, judgeResolved, readOutboundUrl, type Verdict } from './address-policy.ts';

/**
 * The DNS side of the outbound policy. The resolver is injected (Deps.resolveHost), so tests
 * never ask the network and can answer differently at registration and at connection time.
 */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to every address a connection could use. */
export type HostLookup = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export const systemLookup: HostLookup = (hostname) => lookup(hostname, { all: true, verbatim: true });

/** Where the service may send requests, read at each use (tests and admins may change the setting). */
export interface OutboundPolicy {
  lookup: HostLookup;
  allowPrivate: () => boolean;
}

export type Resolution = { ok: true; addresses: string[] } | { ok: false; reason: string };

/**
 * Every address `host` may be reached at, each checked: a literal is its own address, a name is
 * resolved once and refused if any answer is refused (a connection could use any of them).
 */
export async function resolveChecked(
  host: string,
  lookupHost: HostLookup,
  allowPrivate: boolean,
): Promise<Resolution> {
  const judged = judgeHost(host, allowPrivate);
  if (!judged.ok) return judged;
  if (judged.address !== undefined) return { ok: true, addresses: [judged.address] };
  let found: readonly ResolvedAddress[];
  try {
    found = await lookupHost(judged.host);
  } catch {
    found = [];
  }
  const addresses = found.map(({ address }) => address);
  const verdict = judgeResolved(judged.host, addresses, allowPrivate);
  return verdict.ok ? { ok: true, addresses } : verdict;
}

/**
 * The registration check of a webhook url or a walletUrl. When private addresses are allowed
 * only the scheme is checked: a local receiver need not be up, or resolvable, when registered.
 * Passing here is not enough to connect later: each connection is checked again
 * (pinned-connector.ts), since DNS may answer differently by then.
 */
export async function checkOutboundUrl(url: string, policy: OutboundPolicy): Promise<Verdict> {
  const read = readOutboundUrl(url);
  if (!read.ok) return read;
  if (policy.allowPrivate()) return { ok: true };
  const resolved = await resolveChecked(read.host, policy.lookup, false);
  return resolved.ok ? { ok: true } : resolved;
}
