import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { ProbeFailure } from './probe.js';

/** Where outbound requests (checks and notifications) may go. */
export interface EgressOptions {
  /** Also refuse loopback and private ranges (multi-tenant deployments). */
  denyPrivate: boolean;
  /**
   * Certificate authorities (PEM) trusted besides Node's own roots when probes verify TLS, for
   * targets signed by a private CA. (`NODE_EXTRA_CA_CERTS` does the same for the whole process.)
   */
  extraCaCertificates?: readonly string[];
  /**
   * When set and not empty, the only addresses and networks (`127.0.0.0/8`, `::1`) connections
   * may go to; the refusals above still apply inside them.
   */
  allow?: readonly string[];
}

/** The one egress policy: resolves host names and refuses addresses the policy forbids. */
export interface EgressPolicy {
  readonly options: EgressOptions;
  /** Why an address is refused, or undefined when it is allowed. */
  refusal(address: string): string | undefined;
  /** Resolves a host name (or checks a literal address) to one allowed address, or throws a ProbeFailure. */
  resolve(host: string): Promise<{ address: string; family: 4 | 6 }>;
  /**
   * A `lookup` for net, tls, dgram and undici's `connect` that applies the policy to every answer.
   * Node does not call a lookup for a literal IP address: probes that connect by themselves call
   * `resolve` first and connect to the address it returns, which covers both cases.
   */
  readonly lookup: LookupFunction;
}

function ranges(entries: Array<[string, number, 'ipv4' | 'ipv6']>): BlockList {
  const list = new BlockList();
  for (const [network, prefix, family] of entries) list.addSubnet(network, prefix, family);
  return list;
}

// Link-local covers the cloud metadata services (169.254.169.254, fd00:ec2::254 aside, which is ULA).
const ALWAYS_DENIED = ranges([
  ['169.254.0.0', 16, 'ipv4'],
  ['fe80::', 10, 'ipv6'],
  ['fd00:ec2::254', 128, 'ipv6'],
  ['0.0.0.0', 8, 'ipv4'],
  ['::', 128, 'ipv6'],
]);

/** Never one host: multicast, the reserved class E block and the broadcast address. */
const NOT_UNICAST = ranges([
  ['224.0.0.0', 4, 'ipv4'],
  ['240.0.0.0', 4, 'ipv4'], // 255.255.255.255 (limited broadcast) included
  ['ff00::', 8, 'ipv6'],
]);

const PRIVATE = ranges([
  ['127.0.0.0', 8, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'], // IETF protocol assignments (DS-Lite, NAT64 discovery)
  ['198.18.0.0', 15, 'ipv4'], // benchmarking networks
  ['::1', 128, 'ipv6'],
  ['fc00::', 7, 'ipv6'],
  ['fec0::', 10, 'ipv6'], // site-local (deprecated, still routed inside some networks)
]);

type Form = { address: string; type: 'ipv4' | 'ipv6' };

/** The eight 16-bit words of an IPv6 address (a trailing dotted quad included), or undefined. */
function ipv6Words(address: string): number[] | undefined {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number);
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? left.length !== 8 : missing < 0) return undefined;
  const words = [...left, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...right].map((word) => parseInt(word, 16));
  return words.some((word) => Number.isNaN(word)) ? undefined : words;
}

const dotted = (high: number, low: number): string => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
const zero = (words: number[], from: number, to: number): boolean => words.slice(from, to).every((word) => word === 0);

/**
 * The addresses an address is judged as. An IPv4 address is itself. An IPv6 address that only
 * spells an IPv4 one (IPv4-mapped ::ffff:a.b.c.d and the SIIT form ::ffff:0:a.b.c.d, in either
 * spelling) is that IPv4 address. An IPv6 address that carries an IPv4 one on to a translator or
 * tunnel (NAT64 64:ff9b::/96 and 64:ff9b:1::/48, 6to4 2002::/16, IPv4-compatible ::a.b.c.d) is
 * judged as both: refused when either is.
 */
export function egressForms(address: string): Form[] {
  if (isIP(address) === 4) return [{ address, type: 'ipv4' }];
  const words = ipv6Words(address);
  if (!words || isIP(address.replace(/%.*$/, '')) !== 6) return [{ address, type: 'ipv6' }];
  const own: Form = { address, type: 'ipv6' };
  if (zero(words, 0, 5) && words[5] === 0xffff) return [{ address: dotted(words[6], words[7]), type: 'ipv4' }];
  if (zero(words, 0, 4) && words[4] === 0xffff && words[5] === 0) return [{ address: dotted(words[6], words[7]), type: 'ipv4' }];
  const nat64 = words[0] === 0x64 && words[1] === 0xff9b && (zero(words, 2, 6) || words[2] === 1);
  const compatible = zero(words, 0, 6) && (words[6] !== 0 || words[7] > 1); // :: and ::1 are themselves
  if (nat64 || compatible) return [own, { address: dotted(words[6], words[7]), type: 'ipv4' }];
  if (words[0] === 0x2002) return [own, { address: dotted(words[1], words[2]), type: 'ipv4' }];
  return [own];
}

/**
 * Parses a list of addresses and networks (`127.0.0.0/8, ::1`) into a BlockList, or throws
 * naming the entry that is neither.
 */
export function parseNetworks(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address, prefix, extra] = entry.trim().split('/');
    const kind = isIP(address);
    const bits = prefix === undefined ? undefined : Number(prefix);
    if (kind === 0 || extra !== undefined || (bits !== undefined && (!/^\d+$/.test(prefix!) || bits > (kind === 4 ? 32 : 128)))) {
      throw new Error(`expected an IP address or network such as 127.0.0.0/8 or ::1, got ${JSON.stringify(entry)}`);
    }
    const family = kind === 4 ? 'ipv4' : 'ipv6';
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, bits, family);
  }
  return list;
}

/** The most addresses a policy keeps its verdict on (then it starts over). */
const MAX_KEPT_VERDICTS = 4_096;

/** Builds the egress policy from the runner's settings. */
export function createEgressPolicy(options: EgressOptions): EgressPolicy {
  const allowed = options.allow && options.allow.length > 0 ? parseNetworks(options.allow) : undefined;
  // A policy never changes, so its verdict on an address is kept: judging one takes up to four BlockList
  // checks, each parsing the address anew, on every connection a run makes.
  const verdicts = new Map<string, string | undefined>();
  const refusal = (raw: string): string | undefined => {
    if (verdicts.has(raw)) return verdicts.get(raw);
    if (verdicts.size >= MAX_KEPT_VERDICTS) verdicts.clear();
    const why = judge(raw);
    verdicts.set(raw, why);
    return why;
  };
  const judge = (raw: string): string | undefined => {
    const forms = egressForms(raw);
    if (forms.some(({ address, type }) => ALWAYS_DENIED.check(address, type)))
      return `egress policy refuses ${raw} (link-local, metadata or unspecified address)`;
    if (forms.some(({ address, type }) => NOT_UNICAST.check(address, type))) return `egress policy refuses ${raw} (multicast, broadcast or reserved address)`;
    if (options.denyPrivate && forms.some(({ address, type }) => PRIVATE.check(address, type)))
      return `egress policy refuses ${raw} (loopback or private address)`;
    if (allowed && !forms.every(({ address, type }) => allowed.check(address, type))) return `egress policy refuses ${raw} (outside the allowed networks)`;
    return undefined;
  };

  const resolve = async (host: string): Promise<{ address: string; family: 4 | 6 }> => {
    const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
    const literal = isIP(bare);
    const answers = literal
      ? [{ address: bare, family: literal }]
      : await dnsLookup(bare, { all: true, verbatim: true }).catch((error: NodeJS.ErrnoException) => {
          throw new ProbeFailure(`cannot resolve ${bare}: ${error.code ?? error.message}`);
        });
    if (answers.length === 0) throw new ProbeFailure(`cannot resolve ${bare}: no address`);
    // Every answer must be allowed: otherwise a name with one public and one internal address
    // could be steered to the internal one.
    for (const answer of answers) {
      const why = refusal(answer.address);
      if (why) throw new ProbeFailure(why);
    }
    return { address: answers[0].address, family: answers[0].family === 6 ? 6 : 4 };
  };

  const lookup: LookupFunction = (hostname, lookupOptions, callback) => {
    resolve(hostname).then(
      (answer) => {
        if ((lookupOptions as { all?: boolean }).all) {
          (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [answer]);
        } else callback(null, answer.address, answer.family);
      },
      (error: Error) => callback(Object.assign(error, { code: 'EGRESS_REFUSED' }) as NodeJS.ErrnoException, '', 0),
    );
  };

  return { options, refusal, resolve, lookup };
}
