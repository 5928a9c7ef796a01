import { type BlockList, isIP } from 'node:net';
import type { Middleware } from 'koa';

/**
 * Which proxies in front of the daemon may say who the client is: none (the socket's peer is the
 * client), a number of hops (that many proxies, each appending to `X-Forwarded-For`), or a list of
 * proxy addresses and networks (every hop from one of them is trusted, the first one that is not
 * is the client).
 */
export type TrustProxy = { kind: 'none' } | { kind: 'hops'; hops: number } | { kind: 'addresses'; list: BlockList; text: string };

/** `::ffff:192.0.2.1` and `192.0.2.1` are the same client. */
const plain = (address: string): string => address.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');

function trusted(list: BlockList, address: string): boolean {
  const kind = isIP(address);
  return kind !== 0 && list.check(address, kind === 4 ? 'ipv4' : 'ipv6');
}

/**
 * The client's address: the socket's peer, or with trusted proxies the address the nearest
 * untrusted hop is known by. `X-Forwarded-For` is read from the right, so a client cannot
 * place an address of its choosing beyond what the trusted proxies appended.
 */
export function resolveClientAddress(trust: TrustProxy, socketAddress: string, forwardedFor: string | undefined): string {
  const peer = plain(socketAddress);
  if (trust.kind === 'none' || !forwardedFor) return peer;
  // Nearest first: the peer, then what each proxy appended, right to left.
  const hops = [
    peer,
    ...forwardedFor
      .split(',')
      .map((entry) => plain(entry.trim()))
      .reverse(),
  ];
  if (trust.kind === 'hops') {
    const address = hops[Math.min(trust.hops, hops.length - 1)];
    return isIP(address) ? address : peer;
  }
  let client = peer;
  for (let i = 1; i < hops.length && trusted(trust.list, client); i++) {
    if (!isIP(hops[i])) break;
    client = hops[i];
  }
  return client;
}

/** Sets `ctx.ip` to the client's address under the configured proxy trust. */
export function clientAddress(trust: TrustProxy): Middleware {
  return async (ctx, next) => {
    ctx.request.ip = resolveClientAddress(trust, ctx.req.socket.remoteAddress ?? '', ctx.get('x-forwarded-for') || undefined);
    await next();
  };
}
