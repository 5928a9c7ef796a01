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

const PRIVATE = ranges([
  ['127.0.0.0', 8, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['::1', 128, 'ipv6'],
  ['fc00::', 7, 'ipv6'],
]);

/**
 * An IPv4-mapped IPv6 address is judged as the IPv4 address it carries, in either spelling:
 * ::ffff:169.254.169.254 or ::ffff:a9fe:a9fe (as URL parsing writes it).
 */
function normalise(address: string): { address: string; type: 'ipv4' | 'ipv6' } {
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (dotted) return { address: dotted[1], type: 'ipv4' };
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hex) {
    const [high, low] = [parseInt(hex[1], 16), parseInt(hex[2], 16)];
    return { address: `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`, type: 'ipv4' };
  }
  return { address, type: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

/** Builds the egress policy from the runner's settings. */
export function createEgressPolicy(options: EgressOptions): EgressPolicy {
  const refusal = (raw: string): string | undefined => {
    const { address, type } = normalise(raw);
    if (ALWAYS_DENIED.check(address, type)) return `egress policy refuses ${raw} (link-local, metadata or unspecified address)`;
    if (options.denyPrivate && PRIVATE.check(address, type)) return `egress policy refuses ${raw} (loopback or private address)`;
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
