import { isIP } from 'node:net';

/**
 * Where the service may send requests (webhooks, docs/contract.md §7, and operators' wallets, §6): only
 * http(s), and only public addresses unless the configuration allows private ones. Without this,
 * any API client could make the service send requests into the network it runs in (cloud
 * metadata, admin panels on localhost…). Pure: resolving names is host-resolution.ts's job.
 */

/** What an address is, for the refusal message; only `public` is reachable by default. */
export type AddressKind =
  | 'public'
  | 'private'
  | 'loopback'
  | 'link-local'
  | 'cgnat'
  | 'unique-local'
  | 'unspecified'
  | 'multicast'
  | 'documentation'
  | 'reserved';

const KIND_TEXT: Record<Exclude<AddressKind, 'public'>, string> = {
  private: 'a private address',
  loopback: 'a loopback address',
  'link-local': 'a link-local address',
  cgnat: 'a carrier-grade NAT (shared) address',
  'unique-local': 'a unique-local IPv6 address',
  unspecified: 'the unspecified address',
  multicast: 'a multicast address',
  documentation: 'an address reserved for documentation',
  reserved: 'a reserved address',
};

type Range = readonly [base: bigint, prefix: number, kind: AddressKind];

/** A block of the tables below; the texts are constants, so a typo fails at start-up. */
function block(parse: (text: string) => bigint | undefined, text: string, prefix: number): bigint {
  const base = parse(text);
  if (base === undefined) throw new Error(`bad address block ${text}/${prefix}`);
  return base;
}
const v4 = (text: string, prefix: number, kind: AddressKind): Range => [
  block(parseIpv4, text, prefix),
  prefix,
  kind,
];
const v6 = (text: string, prefix: number, kind: AddressKind): Range => [
  block(parseIpv6, text, prefix),
  prefix,
  kind,
];

/** IPv4 special-purpose blocks (IANA registry): none of them is a public destination. */
const IPV4_RANGES: readonly Range[] = [
  v4('0.0.0.0', 8, 'unspecified'),
  v4('10.0.0.0', 8, 'private'),
  v4('100.64.0.0', 10, 'cgnat'),
  v4('127.0.0.0', 8, 'loopback'),
  v4('169.254.0.0', 16, 'link-local'),
  v4('172.16.0.0', 12, 'private'),
  v4('192.0.0.0', 24, 'reserved'),
  v4('192.0.2.0', 24, 'documentation'),
  v4('192.88.99.0', 24, 'reserved'),
  v4('192.168.0.0', 16, 'private'),
  v4('198.18.0.0', 15, 'reserved'),
  v4('198.51.100.0', 24, 'documentation'),
  v4('203.0.113.0', 24, 'documentation'),
  v4('224.0.0.0', 4, 'multicast'),
  v4('240.0.0.0', 4, 'reserved'), // includes 255.255.255.255 (broadcast)
];

/** IPv6 blocks that are not public unicast; blocks embedding an IPv4 address are handled apart. */
const IPV6_RANGES: readonly Range[] = [
  v6('::', 128, 'unspecified'),
  v6('::1', 128, 'loopback'),
  v6('64:ff9b:1::', 48, 'private'), // local-use NAT64
  v6('100::', 64, 'reserved'), // discard-only
  v6('2001::', 32, 'reserved'), // Teredo: tunnels to an address we cannot check
  v6('2001:2::', 48, 'reserved'), // benchmarking
  v6('2001:db8::', 32, 'documentation'),
  v6('3fff::', 20, 'documentation'),
  v6('fc00::', 7, 'unique-local'),
  v6('fe80::', 10, 'link-local'),
  v6('fec0::', 10, 'private'), // deprecated site-local
  v6('ff00::', 8, 'multicast'),
];

/** IPv6 blocks whose low 32 bits (or, for 6to4, bits 16–47) are an IPv4 address that decides. */
const IPV4_CARRIERS: readonly (readonly [base: bigint, prefix: number, shift: bigint])[] = [
  [block(parseIpv6, '::ffff:0:0', 96), 96, 0n], // IPv4-mapped
  [block(parseIpv6, '::ffff:0:0:0', 96), 96, 0n], // IPv4-translated (SIIT)
  [block(parseIpv6, '64:ff9b::', 96), 96, 0n], // well-known NAT64
  [0n, 96, 0n], // IPv4-compatible (deprecated); :: and ::1 are matched before
  [block(parseIpv6, '2002::', 16), 16, 80n], // 6to4
];

const GLOBAL_UNICAST_V6: readonly [bigint, number] = [block(parseIpv6, '2000::', 3), 3];

const inRange = (value: bigint, base: bigint, prefix: number, bits: number) => {
  const shift = BigInt(bits - prefix);
  return value >> shift === base >> shift;
};

function parseIpv4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(part) || Number(part) > 255) return undefined;
    value = (value << 8n) | BigInt(part);
  }
  return value;
}

function parseIpv6(text: string): bigint | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groupsOf = (half: string | undefined): string[] | undefined => {
    if (!half) return [];
    const groups = half.split(':');
    const last = groups[groups.length - 1] ?? '';
    if (last.includes('.')) {
      const v4 = parseIpv4(last);
      if (v4 === undefined) return undefined;
      groups.splice(-1, 1, (v4 >> 16n).toString(16), (v4 & 0xffffn).toString(16));
    }
    return groups.every((group) => /^[0-9a-f]{1,4}$/i.test(group)) ? groups : undefined;
  };
  const head = groupsOf(halves[0]);
  const tail = halves.length === 2 ? groupsOf(halves[1]) : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const groups = [...head, ...Array<string>(missing).fill('0'), ...tail];
  return groups.reduce((value, group) => (value << 16n) | BigInt(`0x${group}`), 0n);
}

function classifyIpv4(value: bigint): AddressKind {
  return IPV4_RANGES.find(([base, prefix]) => inRange(value, base, prefix, 32))?.[2] ?? 'public';
}

function classifyIpv6(value: bigint): AddressKind {
  const special = IPV6_RANGES.find(([base, prefix]) => inRange(value, base, prefix, 128));
  if (special) return special[2];
  const carrier = IPV4_CARRIERS.find(([base, prefix]) => inRange(value, base, prefix, 128));
  if (carrier) return classifyIpv4((value >> carrier[2]) & 0xffff_ffffn);
  const [base, prefix] = GLOBAL_UNICAST_V6;
  return inRange(value, base, prefix, 128) ? 'public' : 'reserved';
}

/**
 * The kind of an IP literal (dotted IPv4, or IPv6 with or without brackets and zone), or
 * undefined when `address` is not an IP literal (a host name to resolve).
 */
export function classifyAddress(address: string): AddressKind | undefined {
  const bare = address.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  const version = isIP(bare);
  if (version === 4) {
    const value = parseIpv4(bare);
    return value === undefined ? undefined : classifyIpv4(value);
  }
  if (version === 6) {
    const value = parseIpv6(bare);
    return value === undefined ? 'reserved' : classifyIpv6(value);
  }
  return undefined;
}

/** The setting that lifts the refusal, named in every refusal so an integrator knows what to do. */
export const ALLOW_HINT = 'set OUTBOUND_ALLOW_PRIVATE=true for local integration';

export type Verdict = { ok: true } | { ok: false; reason: string };

/** What a URL's host is, before any DNS: refused outright, an address already, or a name to resolve. */
export type HostVerdict =
  | { ok: false; reason: string }
  | { ok: true; host: string; address: string }
  | { ok: true; host: string; address?: undefined };

/**
 * Reads an outbound URL: http(s) only, no credentials needed for the check. The host comes back
 * as WHATWG URL normalises it, so 2130706433, 0x7f.1, 0177.0.0.1 and 127.1 are all 127.0.0.1 here
 * and `[::ffff:127.0.0.1]` is `[::ffff:7f00:1]`.
 */
export function readOutboundUrl(url: string): { ok: true; host: string } | { ok: false; reason: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: 'must be an http(s) URL' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { ok: false, reason: 'must be an http(s) URL' };
  }
  return { ok: true, host: parsed.hostname };
}

/**
 * Judges a host (as in a URL, brackets allowed) before resolving it. `localhost` and
 * `*.localhost` are loopback without asking DNS (RFC 6761); a trailing dot changes nothing.
 */
export function judgeHost(rawHost: string, allowPrivate: boolean): HostVerdict {
  const host = rawHost
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
  const shown = host.includes(':') ? `[${host}]` : host;
  const isLocalhostName = host === 'localhost' || host.endsWith('.localhost');
  const literal = classifyAddress(host);
  if (!allowPrivate) {
    if (isLocalhostName) return { ok: false, reason: `${shown} is ${KIND_TEXT.loopback}; ${ALLOW_HINT}` };
    if (literal !== undefined && literal !== 'public') {
      return { ok: false, reason: `${shown} is ${KIND_TEXT[literal]}; ${ALLOW_HINT}` };
    }
  }
  return literal === undefined ? { ok: true, host } : { ok: true, host, address: host.replace(/%.*$/, '') };
}

/**
 * Judges what a name resolved to: every address must be public (a connection may use any of
 * them), and a name that resolved to nothing is refused since we cannot tell where it points.
 */
export function judgeResolved(host: string, addresses: readonly string[], allowPrivate: boolean): Verdict {
  if (addresses.length === 0) return { ok: false, reason: `the host ${host} could not be resolved` };
  if (allowPrivate) return { ok: true };
  for (const address of addresses) {
    const kind = classifyAddress(address) ?? 'reserved';
    if (kind !== 'public') {
      return { ok: false, reason: `${host} resolves to ${address}, ${KIND_TEXT[kind]}; ${ALLOW_HINT}` };
    }
  }
  return { ok: true };
}
