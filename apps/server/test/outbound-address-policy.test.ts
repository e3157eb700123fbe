// no-store: the outbound address rules, on a fake DNS
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AddressKind,
  ALLOW_HINT,
  classifyAddress,
  judgeHost,
  judgeResolved,
} from '../src/outbound/address-policy.ts';
import { checkOutboundUrl, type HostLookup } from '../src/outbound/host-resolution.ts';

/**
 * The outbound address policy (webhooks and wallets): which addresses are refused by default,
 * however they are written. The classification is pure; the URL check is run with an injected
 * resolver that fails the test if an IP literal is ever looked up.
 */

const noDns: HostLookup = () => {
  throw new Error('an IP literal must not be looked up');
};

/** The registration check with private addresses refused (the default). */
const check = (url: string, lookup: HostLookup = noDns) =>
  checkOutboundUrl(url, { lookup, allowPrivate: () => false });

describe('classifyAddress', () => {
  it.each<[string, AddressKind | undefined]>([
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['9.255.255.255', 'public'],
    ['11.0.0.0', 'public'],
    ['100.63.255.255', 'public'],
    ['100.128.0.0', 'public'],
    ['126.255.255.255', 'public'],
    ['128.0.0.0', 'public'],
    ['169.253.255.255', 'public'],
    ['172.15.255.255', 'public'],
    ['172.32.0.0', 'public'],
    ['192.167.255.255', 'public'],
    ['192.169.0.0', 'public'],
    ['223.255.255.255', 'public'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['10.0.0.0', 'private'],
    ['10.255.255.255', 'private'],
    ['100.64.0.0', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['192.168.255.255', 'private'],
    ['192.0.0.8', 'reserved'],
    ['192.0.2.1', 'documentation'],
    ['198.18.0.1', 'reserved'],
    ['198.19.255.255', 'reserved'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.255', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['2606:4700:4700::1111', 'public'],
    ['2a00:1450:4001:80b::200e', 'public'],
    ['[2606:4700:4700::1111]', 'public'],
    ['::', 'unspecified'],
    ['0:0:0:0:0:0:0:0', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::FFFF:7F00:0001', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['::ffff:100.64.0.1', 'cgnat'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['::ffff:8.8.8.8', 'public'],
    ['::ffff:0:a00:1', 'private'],
    ['::127.0.0.1', 'loopback'],
    ['::8.8.8.8', 'public'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['64:ff9b::8.8.8.8', 'public'],
    ['64:ff9b:1::8.8.8.8', 'private'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:c0a8:101::1', 'private'],
    ['2002:808:808::1', 'public'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'unique-local'],
    ['fec0::1', 'private'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['2001::1', 'reserved'],
    ['2001:2::1', 'reserved'],
    ['100::1', 'reserved'],
    ['4000::1', 'reserved'],
    ['::2', 'unspecified'], // IPv4-compatible ::0.0.0.2
    ['5f00::1', 'reserved'],
    ['example.com', undefined],
    ['localhost', undefined],
    ['1.2.3', undefined],
    ['01.2.3.4', undefined],
    ['256.1.1.1', undefined],
    ['', undefined],
  ])('classifies %s as %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });
});

describe('checkOutboundUrl with private addresses refused (the default)', () => {
  it.each([
    ['http://127.0.0.1:8080/hook', '127.0.0.1 is a loopback address'],
    ['http://2130706433/', '127.0.0.1 is a loopback address'],
    ['http://0x7f000001/', '127.0.0.1 is a loopback address'],
    ['http://0177.0.0.1/', '127.0.0.1 is a loopback address'],
    ['http://0x7f.1/', '127.0.0.1 is a loopback address'],
    ['http://127.1/', '127.0.0.1 is a loopback address'],
    ['http://167772161/', '10.0.0.1 is a private address'],
    ['http://0/', '0.0.0.0 is the unspecified address'],
    ['http://100.64.1.1/', '100.64.1.1 is a carrier-grade NAT (shared) address'],
    ['http://169.254.169.254/latest/meta-data', '169.254.169.254 is a link-local address'],
    ['http://[::1]:3000/', '[::1] is a loopback address'],
    ['http://[::]/', '[::] is the unspecified address'],
    ['http://[::ffff:127.0.0.1]/', '[::ffff:7f00:1] is a loopback address'],
    ['http://[0:0:0:0:0:ffff:a9fe:a9fe]/', '[::ffff:a9fe:a9fe] is a link-local address'],
    ['http://[fd00::5]/', '[fd00::5] is a unique-local IPv6 address'],
    ['http://[fe80::1]/', '[fe80::1] is a link-local address'],
    ['http://localhost:4000/hook', 'localhost is a loopback address'],
    ['http://LOCALHOST./', 'localhost is a loopback address'],
    ['http://api.localhost/', 'api.localhost is a loopback address'],
  ])('refuses %s without asking DNS', async (url, reason) => {
    expect(await check(url)).toEqual({ ok: false, reason: `${reason}; ${ALLOW_HINT}` });
  });

  it.each([
    'https://8.8.8.8/hook',
    'http://1.1.1.1:8080/',
    'https://[2606:4700:4700::1111]/x',
    'http://[::ffff:8.8.8.8]/',
  ])('accepts the public address %s', async (url) => {
    expect(await check(url)).toEqual({ ok: true });
  });

  it.each(['ftp://8.8.8.8/', 'not a url', 'javascript:alert(1)', 'file:///etc/passwd'])(
    'refuses %s as not http(s)',
    async (url) => {
      expect(await check(url)).toEqual({ ok: false, reason: 'must be an http(s) URL' });
    },
  );

  const resolvesTo =
    (...addresses: string[]): HostLookup =>
    async () =>
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

  it('resolves a host name and accepts it when every address is public', async () => {
    const asked: string[] = [];
    const lookup: HostLookup = async (host) => {
      asked.push(host);
      return [
        { address: '93.184.215.14', family: 4 },
        { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
      ];
    };
    expect(await check('https://Hooks.Example./raspa', lookup)).toEqual({ ok: true });
    expect(asked).toEqual(['hooks.example']);
  });

  it.each([
    [resolvesTo('10.1.2.3'), 'hooks.example resolves to 10.1.2.3, a private address'],
    [resolvesTo('93.184.215.14', '127.0.0.1'), 'hooks.example resolves to 127.0.0.1, a loopback address'],
    [resolvesTo('::1'), 'hooks.example resolves to ::1, a loopback address'],
    [resolvesTo('::ffff:192.168.0.10'), 'hooks.example resolves to ::ffff:192.168.0.10, a private address'],
    [resolvesTo('fd00::1'), 'hooks.example resolves to fd00::1, a unique-local IPv6 address'],
    [resolvesTo('not-an-address'), 'hooks.example resolves to not-an-address, a reserved address'],
  ])('refuses a host name that resolves to a non-public address (%#)', async (lookup, reason) => {
    expect(await check('https://hooks.example/x', lookup)).toEqual({
      ok: false,
      reason: `${reason}; ${ALLOW_HINT}`,
    });
  });

  it('refuses a host name that cannot be resolved', async () => {
    const failing: HostLookup = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    const reason = 'the host nowhere.example could not be resolved';
    expect(await check('https://nowhere.example/', failing)).toEqual({ ok: false, reason });
    expect(await check('https://nowhere.example/', resolvesTo())).toEqual({ ok: false, reason });
  });
});

// ---- properties: every address of every special block, in every notation ----

/**
 * The IPv4 special-purpose blocks, written out again here (not imported) so the properties check
 * the policy against an independent table.
 */
const SPECIAL_V4: readonly [base: string, prefix: number, kind: AddressKind][] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'cgnat'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

const toValue = (dotted: string) => dotted.split('.').reduce((sum, octet) => sum * 256 + Number(octet), 0);
const octetsOf = (value: number) => [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255];
const hex4 = (value: number) => value.toString(16).padStart(8, '0');
const inBlock = (value: number, [base, prefix]: readonly [string, number, AddressKind]) =>
  Math.floor(value / 2 ** (32 - prefix)) === Math.floor(toValue(base) / 2 ** (32 - prefix));
const specialKind = (value: number) => SPECIAL_V4.find((block) => inBlock(value, block))?.[2];

/** An address of a special block, with the block's kind. */
const specialV4 = fc
  .constantFrom(...SPECIAL_V4)
  .chain(([base, prefix, kind]) =>
    fc.nat(2 ** (32 - prefix) - 1).map((offset) => ({ value: toValue(base) + offset, kind })),
  );

/** A public IPv4 address: any address outside every special block. */
const publicV4 = fc.nat(2 ** 32 - 1).filter((value) => specialKind(value) === undefined);

/** The ways a URL host can spell one IPv4 address (WHATWG URL turns the IPv4 ones into a.b.c.d). */
const IPV4_NOTATIONS: readonly [name: string, spell: (value: number) => string][] = [
  ['dotted', (v) => octetsOf(v).join('.')],
  ['decimal integer', (v) => String(v)],
  ['hex integer', (v) => `0x${hex4(v)}`],
  ['upper-case hex integer', (v) => `0X${hex4(v).toUpperCase()}`],
  [
    'octal octets',
    (v) =>
      octetsOf(v)
        .map((octet) => `0${octet.toString(8)}`)
        .join('.'),
  ],
  [
    'hex octets',
    (v) =>
      octetsOf(v)
        .map((octet) => `0x${octet.toString(16)}`)
        .join('.'),
  ],
  ['a.b.c16', (v) => `${v >>> 24}.${(v >>> 16) & 255}.${v & 0xffff}`],
  ['a.b24', (v) => `${v >>> 24}.${v & 0xffffff}`],
  [
    'mixed hex, octal and decimal',
    (v) => {
      const [a, b, c, d] = octetsOf(v) as [number, number, number, number];
      return `0x${a.toString(16)}.${b}.0${c.toString(8)}.${d}`;
    },
  ],
  ['trailing dot', (v) => `${octetsOf(v).join('.')}.`],
  [
    'percent-encoded',
    (v) => [...octetsOf(v).join('.')].map((char) => `%${char.charCodeAt(0).toString(16)}`).join(''),
  ],
];

/** The IPv6 addresses that carry an IPv4 address (and are judged by it). */
const IPV6_EMBEDDINGS: readonly [name: string, spell: (value: number) => string][] = [
  ['IPv4-mapped, dotted', (v) => `[::ffff:${octetsOf(v).join('.')}]`],
  ['IPv4-mapped, hex', (v) => `[::ffff:${hex4(v).slice(0, 4)}:${hex4(v).slice(4)}]`],
  ['IPv4-mapped, written out', (v) => `[0:0:0:0:0:FFFF:${hex4(v).slice(0, 4)}:${hex4(v).slice(4)}]`],
  ['IPv4-translated (SIIT)', (v) => `[::ffff:0:${octetsOf(v).join('.')}]`],
  ['NAT64 well-known prefix', (v) => `[64:ff9b::${octetsOf(v).join('.')}]`],
  ['IPv4-compatible', (v) => `[::${octetsOf(v).join('.')}]`],
  ['6to4', (v) => `[2002:${hex4(v).slice(0, 4)}:${hex4(v).slice(4)}::1]`],
];

describe('the address policy, for every address of a block (properties)', () => {
  it.each(IPV4_NOTATIONS)(
    'refuses every special IPv4 address written as %s, naming its kind',
    async (_, spell) => {
      await fc.assert(
        fc.asyncProperty(specialV4, async ({ value, kind }) => {
          const url = `http://${spell(value)}:8080/hook`;
          const host = new URL(url).hostname;
          expect(host).toBe(octetsOf(value).join('.'));
          expect(classifyAddress(host)).toBe(kind);
          const verdict = await check(url);
          expect(verdict).toEqual({ ok: false, reason: expect.stringContaining(`${host} is `) });
        }),
        { numRuns: 200 },
      );
    },
  );

  it.each(IPV6_EMBEDDINGS)('refuses every special IPv4 address embedded as %s', async (_, spell) => {
    await fc.assert(
      fc.asyncProperty(specialV4, async ({ value }) => {
        expect((await check(`https://${spell(value)}/wallet`)).ok).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it.each([...IPV4_NOTATIONS, ...IPV6_EMBEDDINGS])(
    'accepts public IPv4 addresses written as %s',
    async (_, spell) => {
      await fc.assert(
        fc.asyncProperty(publicV4, async (value) => {
          expect(await check(`https://${spell(value)}/hook`)).toEqual({ ok: true });
        }),
        { numRuns: 200 },
      );
    },
  );

  /** IPv6 blocks that are never public, each with a random address inside it. */
  const SPECIAL_V6: readonly [first: number, bits: number, kind: AddressKind][] = [
    [0xfc00, 7, 'unique-local'],
    [0xfe80, 10, 'link-local'],
    [0xfec0, 10, 'private'],
    [0xff00, 8, 'multicast'],
  ];
  const group = fc.nat(0xffff).map((value) => value.toString(16));

  it.each(SPECIAL_V6)('refuses every address under %s/%i (%s), zone id or not', async (first, bits, kind) => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat(2 ** (16 - bits) - 1),
        fc.array(group, { minLength: 7, maxLength: 7 }),
        async (low, rest) => {
          const address = [(first + low).toString(16), ...rest].join(':');
          expect(classifyAddress(address)).toBe(kind);
          expect(classifyAddress(`${address}%eth0`)).toBe(kind);
          expect((await check(`http://[${address}]/`)).ok).toBe(false);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('refuses documentation, Teredo, benchmarking and discard IPv6 prefixes', async () => {
    const prefixes = ['2001:db8', '2001:0', '2001:2:0', '100:0:0:0'];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...prefixes),
        fc.array(group, { minLength: 4, maxLength: 4 }),
        async (prefix, rest) => {
          const address = `${prefix}:${rest.join(':')}`.split(':').slice(0, 8).join(':');
          expect((await check(`http://[${address}]/`)).ok).toBe(false);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('accepts global unicast IPv6 addresses outside every special block', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0x2400, max: 0x2fff }),
        fc.array(group, { minLength: 7, maxLength: 7 }),
        async (first, rest) => {
          const address = [first.toString(16), ...rest].join(':');
          expect(classifyAddress(address)).toBe('public');
          expect(await check(`https://[${address}]/`)).toEqual({ ok: true });
        },
      ),
      { numRuns: 200 },
    );
  });

  it('refuses a name when any one of its addresses is special, and accepts it when all are public', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(publicV4, { maxLength: 4 }),
        specialV4,
        fc.nat(4),
        async (publics, bad, at) => {
          const addresses = publics.map((value) => octetsOf(value).join('.'));
          const mixed = [...addresses];
          mixed.splice(Math.min(at, mixed.length), 0, octetsOf(bad.value).join('.'));
          expect(judgeResolved('hooks.example', mixed, false).ok).toBe(false);
          expect(judgeResolved('hooks.example', mixed, true).ok).toBe(true);
          expect(judgeResolved('hooks.example', addresses, false).ok).toBe(addresses.length > 0);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('judgeHost', () => {
  it.each(['localhost', 'LOCALHOST.', 'api.localhost', 'a.b.localhost.'])(
    'refuses %s as loopback without DNS',
    (host) => {
      expect(judgeHost(host, false)).toEqual({
        ok: false,
        reason: `${host.toLowerCase().replace(/\.$/, '')} is a loopback address; ${ALLOW_HINT}`,
      });
    },
  );

  it('lets everything through, to be resolved, when private addresses are allowed', () => {
    expect(judgeHost('localhost', true)).toEqual({ ok: true, host: 'localhost' });
    expect(judgeHost('127.0.0.1', true)).toEqual({ ok: true, host: '127.0.0.1', address: '127.0.0.1' });
    expect(judgeHost('[::1]', true)).toEqual({ ok: true, host: '::1', address: '::1' });
  });

  it('names the setting that lifts a refusal', async () => {
    expect(await check('http://[fe80::1%25eth0]/')).toEqual({ ok: false, reason: 'must be an http(s) URL' });
    expect(await check('http://10.0.0.1/')).toEqual({
      ok: false,
      reason: '10.0.0.1 is a private address; set OUTBOUND_ALLOW_PRIVATE=true for local integration',
    });
  });
});
