import { randomBytes } from 'node:crypto';
import { Agent, createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { EgressPolicy } from './egress.js';

/** A connection the proxy did not make: refused by the policy, or the target did not answer. */
export interface ProxyFailure {
  /** `host:port` as the browser asked for it. */
  authority: string;
  /** `refused`: the egress policy forbids the address; `unreachable`: the connection failed. */
  kind: 'refused' | 'unreachable';
  /** The policy's refusal, or Chromium's name for the connection error (`net::ERR_CONNECTION_REFUSED`). */
  message: string;
}

/** A forward proxy on loopback that lets a browser connect only where the egress policy allows. */
export interface BrowserEgressProxy {
  /** For Chromium's `--proxy-server`. */
  readonly url: string;
  /** What the proxy did not connect, in order. */
  readonly failures: readonly ProxyFailure[];
  /** The failure a response the browser received stands for, when the proxy (not a server) wrote it. */
  failureOf(headers: Record<string, string>): ProxyFailure | undefined;
  /** The last failure for a URL's `host:port`. */
  failureFor(url: string): ProxyFailure | undefined;
  /** Closes the proxy and every connection through it. */
  close(): Promise<void>;
}

/** The header that marks the proxy's own answers; its value holds a token only this proxy knows. */
const MARK = 'x-svc-egress-proxy';

/** Request and response headers that concern one hop only, not the end-to-end exchange. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** Chromium's names for connection errors, so a proxied failure reads as a direct one would. */
const NET_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'net::ERR_CONNECTION_REFUSED',
  ECONNRESET: 'net::ERR_CONNECTION_RESET',
  ETIMEDOUT: 'net::ERR_CONNECTION_TIMED_OUT',
  EHOSTUNREACH: 'net::ERR_ADDRESS_UNREACHABLE',
  ENETUNREACH: 'net::ERR_ADDRESS_UNREACHABLE',
  EADDRNOTAVAIL: 'net::ERR_ADDRESS_INVALID',
};

/** `host:port` (IPv6 in brackets) into its parts; undefined when it is not one. */
function splitAuthority(authority: string): { host: string; port: number } | undefined {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]\s/]+):(\d{1,5})$/.exec(authority);
  if (!match) return undefined;
  const port = Number(match[2]);
  if (port < 1 || port > 65_535) return undefined;
  return { host: match[1].replace(/^\[(.*)\]$/, '$1'), port };
}

/** The `host:port` of an http(s) or ws(s) URL, with the scheme's default port. */
function authorityOf(url: URL): string {
  const port = url.port || (url.protocol === 'https:' || url.protocol === 'wss:' ? '443' : '80');
  return `${url.hostname}:${port}`;
}

function withoutHopByHop(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const kept: IncomingHttpHeaders = {};
  const named = new Set(
    String(headers.connection ?? '')
      .toLowerCase()
      .split(',')
      .map((name) => name.trim()),
  );
  for (const [name, value] of Object.entries(headers)) if (!HOP_BY_HOP.has(name) && !named.has(name)) kept[name] = value;
  return kept;
}

/**
 * Starts the proxy a browser run sends all its traffic to (`--proxy-server`): CONNECT tunnels
 * (https, wss) and plain-HTTP forward requests (http, and ws upgrades). Each target host is
 * resolved through the egress policy here and the connection goes to the address it allowed,
 * never to a second lookup; anything refused gets a 403 and is never connected. Redirects,
 * script requests, WebSockets and subresources are all separate connections through here, so
 * each is checked, not only the page's first request.
 */
export async function startBrowserEgressProxy(egress: EgressPolicy): Promise<BrowserEgressProxy> {
  const token = randomBytes(12).toString('hex');
  const failures: ProxyFailure[] = [];
  const sockets = new Set<Duplex>();
  const agent = new Agent({ keepAlive: true });
  /** Set by close(): a request whose vetting ends after it connects nothing, and any socket that comes late is destroyed. */
  let closed = false;
  const track = (socket: Duplex) => {
    if (closed) {
      socket.on('error', () => {});
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  };
  const fail = (failure: ProxyFailure): string => {
    failures.push(failure);
    return `${token}:${failures.length - 1}`;
  };

  /** The address to connect to, or the failure recorded (the policy's refusal or a failed lookup). */
  const vet = async (authority: string, host: string): Promise<{ address: string } | { failure: string; status: number }> => {
    try {
      const { address } = await egress.resolve(host);
      return { address };
    } catch (error) {
      const message = (error as Error).message;
      // A name that does not resolve is the browser's ERR_NAME_NOT_RESOLVED; anything else is the policy's refusal.
      const refused = !message.startsWith('cannot resolve');
      return {
        failure: fail({ authority, kind: refused ? 'refused' : 'unreachable', message: refused ? message : 'net::ERR_NAME_NOT_RESOLVED' }),
        status: refused ? 403 : 502,
      };
    }
  };
  const connectionError = (authority: string, error: NodeJS.ErrnoException): string =>
    fail({ authority, kind: 'unreachable', message: NET_ERRORS[error.code ?? ''] ?? 'net::ERR_CONNECTION_FAILED' });

  const rawAnswer = (socket: Duplex, status: number, mark: string) => {
    const reason = status === 403 ? 'Forbidden' : status === 400 ? 'Bad Request' : 'Bad Gateway';
    socket.end(`HTTP/1.1 ${status} ${reason}\r\n${MARK}: ${mark}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`);
  };

  /** Opens a TCP connection to the vetted address; calls back once, with the socket or the failure. */
  const open = (authority: string, address: string, port: number, done: (error: string | undefined, upstream: Socket) => void) => {
    const upstream = connect({ host: address, port, noDelay: true });
    track(upstream);
    let settled = false;
    upstream.once('connect', () => {
      settled = true;
      done(undefined, upstream);
    });
    upstream.once('error', (error: NodeJS.ErrnoException) => {
      if (settled) return;
      settled = true;
      done(connectionError(authority, error), upstream);
    });
  };

  const tunnel = async (request: IncomingMessage, client: Duplex, head: Buffer) => {
    track(client);
    const authority = request.url ?? '';
    const target = splitAuthority(authority);
    if (!target) return rawAnswer(client, 400, fail({ authority, kind: 'unreachable', message: 'net::ERR_INVALID_URL' }));
    const vetted = await vet(authority, target.host);
    if (closed) return client.destroy();
    if ('failure' in vetted) return rawAnswer(client, vetted.status, vetted.failure);
    open(authority, vetted.address, target.port, (failure, upstream) => {
      if (failure) return rawAnswer(client, 502, failure);
      if (client.destroyed) return upstream.destroy();
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
      upstream.once('close', () => client.destroy());
      client.once('close', () => upstream.destroy());
    });
  };

  /** The absolute-form URL of a forward request, when it is plain http (https comes by CONNECT). */
  const forwardTarget = (request: IncomingMessage): { url: URL; authority: string; host: string; port: number } | undefined => {
    let url: URL;
    try {
      url = new URL(request.url ?? '');
    } catch {
      return undefined;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'ws:') return undefined;
    const authority = authorityOf(url);
    return { url, authority, host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: Number(authority.slice(authority.lastIndexOf(':') + 1)) };
  };

  const forward = async (request: IncomingMessage, response: ServerResponse) => {
    const answer = (status: number, mark: string) => {
      response.writeHead(status, { [MARK]: mark, 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
      response.end(status === 403 ? 'refused by the egress policy\n' : 'the proxy could not connect\n');
    };
    const target = forwardTarget(request);
    if (!target) return answer(400, fail({ authority: request.url ?? '', kind: 'unreachable', message: 'net::ERR_INVALID_URL' }));
    const vetted = await vet(target.authority, target.host);
    if (closed) return response.destroy();
    if ('failure' in vetted) return answer(vetted.status, vetted.failure);
    const upstream = httpRequest({
      host: vetted.address,
      port: target.port,
      method: request.method,
      path: `${target.url.pathname}${target.url.search}`,
      headers: withoutHopByHop(request.headers),
      setHost: false,
      agent,
    });
    upstream.on('socket', track);
    upstream.on('response', (reply) => {
      response.writeHead(reply.statusCode ?? 502, reply.statusMessage, withoutHopByHop(reply.headers));
      reply.pipe(response);
      reply.on('error', () => response.destroy());
    });
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (response.headersSent) response.destroy();
      else answer(502, connectionError(target.authority, error));
    });
    response.on('close', () => {
      if (!response.writableFinished) upstream.destroy();
    });
    request.pipe(upstream);
  };

  /** A ws:// upgrade sent as a forward request (Chromium tunnels WebSockets, but others may not). */
  const upgrade = async (request: IncomingMessage, client: Duplex, head: Buffer) => {
    track(client);
    const target = forwardTarget(request);
    if (!target) return rawAnswer(client, 400, fail({ authority: request.url ?? '', kind: 'unreachable', message: 'net::ERR_INVALID_URL' }));
    const vetted = await vet(target.authority, target.host);
    if (closed) return client.destroy();
    if ('failure' in vetted) return rawAnswer(client, vetted.status, vetted.failure);
    open(target.authority, vetted.address, target.port, (failure, upstream) => {
      if (failure) return rawAnswer(client, 502, failure);
      if (client.destroyed) return upstream.destroy();
      const lines = [`${request.method} ${target.url.pathname}${target.url.search} HTTP/1.1`];
      for (let i = 0; i < request.rawHeaders.length; i += 2) {
        if (!/^proxy-/i.test(request.rawHeaders[i])) lines.push(`${request.rawHeaders[i]}: ${request.rawHeaders[i + 1]}`);
      }
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
      upstream.once('close', () => client.destroy());
      client.once('close', () => upstream.destroy());
    });
  };

  const server = createServer({ noDelay: true }, (request, response) => void forward(request, response));
  server.on('connect', (request: IncomingMessage, client: Duplex, head: Buffer) => void tunnel(request, client, head));
  server.on('upgrade', (request: IncomingMessage, client: Duplex, head: Buffer) => void upgrade(request, client, head));
  server.on('connection', track);
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    failures,
    failureOf(headers) {
      const mark = headers[MARK];
      if (!mark?.startsWith(`${token}:`)) return undefined;
      return failures[Number(mark.slice(token.length + 1))];
    },
    failureFor(url) {
      let authority: string;
      try {
        authority = authorityOf(new URL(url));
      } catch {
        return undefined;
      }
      return failures.findLast((failure) => failure.authority === authority);
    },
    close() {
      closed = true;
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
        agent.destroy();
      });
      return closing;
    },
  };
}
