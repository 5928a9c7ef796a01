// Preloaded into the tool the differential run starts (`node --import <this file>`): every
// connection it makes stays on loopback. TCP and TLS connections, UDP datagrams, name lookups and
// DNS resolvers are refused unless they go to 127.0.0.0/8 or ::1, so nothing the tool does on its
// own (update checks, telemetry, a monitor pointed elsewhere) leaves the machine. Unix sockets
// (a `path` instead of a host: the Docker host of the docker monitors) never leave it and pass.
import dgram from 'node:dgram';
import dns from 'node:dns';
import net from 'node:net';

const LOOPBACK = new net.BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

function isLoopback(address: string): boolean {
  const plain = address.replace(/^\[|\]$/g, '').replace(/^::ffff:/i, '');
  const family = net.isIP(plain);
  if (family === 0) return false;
  return LOOPBACK.check(plain, family === 4 ? 'ipv4' : 'ipv6');
}

function refused(what: string): Error {
  const error = new Error(`loopback guard: ${what} is not on loopback`) as NodeJS.ErrnoException;
  error.code = 'ECONNREFUSED';
  return error;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;
type Lookup = (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => void;

/** A lookup that answers only loopback addresses. */
function guardedLookup(lookup: Lookup): Lookup {
  return (hostname, options, callback) => {
    const opts = typeof options === 'function' ? {} : options;
    const done = (typeof options === 'function' ? options : callback) as LookupCallback;
    lookup(hostname, opts, (error, address, family) => {
      if (error) return done(error, address, family);
      if (Array.isArray(address)) {
        const kept = address.filter((entry) => isLoopback(entry.address));
        return kept.length > 0 ? done(null, kept) : done(refused(hostname), []);
      }
      return isLoopback(address) ? done(null, address, family) : done(refused(hostname), '', 0);
    });
  };
}

const originalLookup = dns.lookup as unknown as Lookup;
(dns as { lookup: unknown }).lookup = guardedLookup(originalLookup);
const originalPromisesLookup = dns.promises.lookup;
(dns.promises as { lookup: unknown }).lookup = async (hostname: string, options?: dns.LookupOptions) => {
  const answer = await originalPromisesLookup(hostname, options ?? {});
  const all = Array.isArray(answer) ? answer : [answer];
  const kept = all.filter((entry) => isLoopback(entry.address));
  if (kept.length === 0) throw refused(hostname);
  return Array.isArray(answer) ? kept : kept[0];
};

const originalConnect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: unknown[]) {
  // net.connect passes its normalised arguments as one array; sockets called directly get (options) or (port, host).
  const first = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0];
  const options = (typeof first === 'object' && first !== null ? first : { port: first, host: args[1] }) as net.TcpNetConnectOpts & { path?: string };
  if (options.path === undefined) {
    const host = typeof options.host === 'string' ? options.host : 'localhost';
    if (net.isIP(host) !== 0) {
      if (!isLoopback(host)) {
        process.nextTick(() => this.destroy(refused(host)));
        return this;
      }
    } else {
      options.lookup = guardedLookup((options.lookup as Lookup | undefined) ?? (dns.lookup as unknown as Lookup)) as never;
    }
  }
  return (originalConnect as (...a: unknown[]) => net.Socket).apply(this, args);
} as typeof net.Socket.prototype.connect;

const originalSend = dgram.Socket.prototype.send;
dgram.Socket.prototype.send = function guardedSend(this: dgram.Socket, ...args: unknown[]) {
  const address = args.slice(1).find((arg) => typeof arg === 'string') as string | undefined;
  if (address !== undefined && address !== 'localhost' && !isLoopback(address)) {
    const callback = args.at(-1);
    if (typeof callback === 'function') process.nextTick(() => callback(refused(address)));
    return;
  }
  return (originalSend as (...a: unknown[]) => void).apply(this, args);
} as typeof dgram.Socket.prototype.send;

/** The address of a resolver's server as getServers() names it: `1.2.3.4`, `1.2.3.4:53`, `::1` or `[::1]:53`. */
function serverAddress(server: string): string {
  const bracketed = /^\[(.*)\](?::\d+)?$/.exec(server);
  if (bracketed) return bracketed[1]!;
  return net.isIP(server) !== 0 ? server : server.replace(/:\d+$/, '');
}

/** Wraps every query method of a resolver so that it asks only loopback servers. */
function guardResolver(target: Record<string, unknown>, servers: (self: unknown) => string[]): void {
  for (const name of Object.getOwnPropertyNames(target)) {
    if (!/^(resolve|reverse)/.test(name) || typeof target[name] !== 'function') continue;
    const original = target[name] as (...a: unknown[]) => unknown;
    target[name] = function guardedQuery(this: unknown, ...args: unknown[]) {
      const outside = servers(this).find((server) => !isLoopback(serverAddress(server)));
      if (outside !== undefined) {
        const callback = args.at(-1);
        if (typeof callback === 'function') return process.nextTick(() => callback(refused(`the DNS server ${outside}`)));
        return Promise.reject(refused(`the DNS server ${outside}`));
      }
      return original.apply(this, args);
    };
  }
}

guardResolver(dns.Resolver.prototype as never, (self) => (self as dns.Resolver).getServers());
guardResolver(dns.promises.Resolver.prototype as never, (self) => (self as dns.promises.Resolver).getServers());
guardResolver(dns as never, () => dns.getServers());
guardResolver(dns.promises as never, () => dns.getServers());
