import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { WebSocketServer } from 'ws';
import { startGrpcTarget } from './grpc-target.js';
import { hasPodman, startPodmanEngine, type PodmanEngine } from './podman.js';

// The local targets of the differential run, each with a behaviour the monitors expect: HTTP
// (statuses, bodies, JSON, redirects, gzip, authentication), HTTPS with a self-signed certificate
// and with client certificates, open and closed TCP ports, a DNS server with fixed records,
// WebSocket servers closing with chosen codes, an SMTP greeting, a gRPC health server, and a private
// podman engine (Docker-compatible Engine API on a Unix socket) with containers in known states.
// All on 127.0.0.1.

export const BASIC_USER = 'parity';
export const BASIC_PASSWORD = 'parity-pass';
export const BEARER_TOKEN = 'parity-token';

export const JSON_BODY = {
  status: 'ok',
  count: 3,
  version: '2.10',
  ratio: 0.5,
  flag: true,
  nothing: null,
  items: [1, 2],
  nested: { name: 'svc', up: true },
  text: 'Hello World',
};

export interface Targets {
  http: number;
  https: number;
  mtls: number;
  tcpOpen: number;
  tcpClosed: number;
  dns: number;
  ws: number;
  smtp: number;
  grpc: number;
  /** The podman engine's socket and which containers it has, or why there is none. */
  docker: { socketPath: string; containers: DockerContainers } | { missing: string };
  /** PEM of the client certificate and key the mTLS server accepts. */
  client: { cert: string; key: string };
  close(): Promise<void>;
}

/** The containers of the run, by state; `running` and `exited` only where containers can start. */
export interface DockerContainers {
  created: string;
  running?: string;
  exited?: string;
  /** Why none could be started, when so. */
  cannotStart?: string;
}

/** The engine with a created container, and where possible a running one and one that exited with code 3. */
async function startDocker(): Promise<{ engine?: PodmanEngine; docker: Targets['docker'] }> {
  if (!hasPodman()) return { docker: { missing: 'podman is not installed (Debian package podman)' } };
  const engine = await startPodmanEngine();
  const containers: DockerContainers = { created: 'parity-created', cannotStart: engine.cannotStart };
  await engine.create(containers.created, ['/bin/sleep', '3600']);
  if (!engine.cannotStart) {
    containers.running = 'parity-running';
    await engine.create(containers.running, ['/bin/sleep', '3600']);
    await engine.start(containers.running);
    containers.exited = 'parity-exited';
    await engine.create(containers.exited, ['/bin/sh', '-c', 'exit 3']);
    await engine.start(containers.exited);
    await engine.wait(containers.exited);
  }
  return { engine, docker: { socketPath: engine.socketPath, containers } };
}

function certificate(dir: string, name: string, cn: string): { cert: string; key: string } {
  const cert = join(dir, `${name}.crt`);
  const key = join(dir, `${name}.key`);
  const made = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '2',
      '-subj',
      `/CN=${cn}`,
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
    ],
    { encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(`openssl failed: ${made.stderr}`);
  return { cert: readFileSync(cert, 'utf8'), key: readFileSync(key, 'utf8') };
}

function send(res: ServerResponse, status: number, body: string, type = 'text/plain; charset=utf-8', headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': type, ...headers });
  res.end(body);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => resolve(body));
  });
}

/** Every path the HTTP monitors of the run ask for. */
async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const body = await readBody(req);
  const path = url.pathname;
  const status = /^\/status\/(\d{3})$/.exec(path);
  if (status) return send(res, Number(status[1]), `status ${status[1]}`);
  switch (path) {
    case '/ok':
      return send(res, 200, 'hello world, all systems go');
    case '/html':
      return send(res, 200, '<html><body><h1>Welcome</h1><p>Status: <b>operational</b></p></body></html>', 'text/html');
    case '/json':
      return send(res, 200, JSON.stringify(JSON_BODY, null, 2), 'application/json');
    case '/json-array':
      return send(res, 200, '[1, 2, 3]', 'application/json');
    case '/json-string':
      return send(res, 200, '"up"', 'application/json');
    case '/json-number':
      return send(res, 200, '42', 'application/json');
    case '/text':
      return send(res, 200, 'status: up');
    case '/empty':
      return send(res, 200, '');
    case '/unicode':
      return send(res, 200, 'Grüße aus Köln ✓');
    case '/redirect':
      return send(res, 302, '', 'text/plain', { location: '/ok' });
    case '/redirect-chain':
      return send(res, 301, '', 'text/plain', { location: '/redirect' });
    case '/redirect-loop':
      return send(res, 302, '', 'text/plain', { location: '/redirect-loop' });
    case '/gzip': {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
      return void res.end(gzipSync('compressed keyword inside'));
    }
    case '/slow':
      return void setTimeout(() => send(res, 200, 'slow but fine'), 4000);
    case '/basic': {
      const expected = `Basic ${Buffer.from(`${BASIC_USER}:${BASIC_PASSWORD}`).toString('base64')}`;
      return req.headers.authorization === expected
        ? send(res, 200, 'authorised')
        : send(res, 401, 'who are you', 'text/plain', { 'www-authenticate': 'Basic' });
    }
    case '/bearer':
      return req.headers.authorization === `Bearer ${BEARER_TOKEN}` ? send(res, 200, 'authorised') : send(res, 401, 'no token');
    case '/header':
      return req.headers['x-parity'] === 'yes' ? send(res, 200, 'header seen') : send(res, 400, 'header missing');
    case '/post-only':
      return req.method === 'POST' ? send(res, 200, 'posted') : send(res, 405, 'use POST');
    case '/echo-body':
      return send(res, 200, `you sent: ${body}`);
    case '/json-body': {
      try {
        const parsed = JSON.parse(body) as { a?: number };
        return parsed.a === 1 ? send(res, 200, 'body ok') : send(res, 422, 'wrong body');
      } catch {
        return send(res, 400, 'not json');
      }
    }
    case '/head-only':
      return req.method === 'HEAD' ? send(res, 200, '') : send(res, 405, 'use HEAD');
    default:
      return send(res, 404, 'not found');
  }
}

function listen(server: Server | ReturnType<typeof createTcpServer>): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

function closeServer(server: { close(cb: () => void): unknown; closeAllConnections?: () => void }): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections?.();
    server.close(() => resolve());
  });
}

async function freeUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

/** dnsmasq (Debian's dnsmasq-base) answering the records the DNS monitors ask for. */
async function startDnsmasq(): Promise<{ port: number; child: ChildProcess }> {
  const port = await freeUdpPort();
  const child = spawn(
    'dnsmasq',
    [
      '--no-daemon',
      '--conf-file=/dev/null',
      '--no-resolv',
      '--no-hosts',
      '--bind-interfaces',
      '--listen-address=127.0.0.1',
      `--port=${port}`,
      '--pid-file=',
      '--host-record=a.parity.test,127.0.0.10',
      '--host-record=multi.parity.test,127.0.0.11',
      '--host-record=multi.parity.test,127.0.0.12',
      '--host-record=v6.parity.test,::1',
      '--txt-record=txt.parity.test,"v=spf1 include:mail.parity.test ~all"',
      '--txt-record=txt.parity.test,"site-verification=abc123"',
      '--mx-host=parity.test,mail.parity.test,10',
      '--cname=alias.parity.test,a.parity.test',
      '--address=/nx-only.parity.test/',
      '--local=/parity.test/',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`dnsmasq exited (${code}): ${stderr.trim()}`)));
    const check = () => (stderr.includes('started') ? resolve() : setTimeout(check, 20));
    check();
  });
  child.removeAllListeners('exit');
  // dnsmasq outlives a parent that dies: it goes when the run ends, however it ends.
  process.once('exit', () => child.kill('SIGTERM'));
  return { port, child };
}

/** A WebSocket server: `/close/<code>` accepts and closes with that code; other paths are refused with 404. */
async function startWebSockets(): Promise<{ port: number; server: Server; wss: WebSocketServer }> {
  const server = createHttpServer((_req, res) => send(res, 404, 'not a websocket path'));
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    const match = /^\/close\/(\d{4})$/.exec(req.url ?? '');
    if (!match) {
      socket.end('HTTP/1.1 404 Not Found\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => ws.close(Number(match[1]), 'parity'));
  });
  return { port: await listen(server), server, wss };
}

/** An SMTP greeting with EHLO and QUIT, enough for a connection check. */
async function startSmtp(): Promise<{ port: number; server: ReturnType<typeof createTcpServer> }> {
  const server = createTcpServer((socket) => {
    socket.write('220 parity.test ESMTP ready\r\n');
    socket.on('data', (chunk) => {
      for (const line of chunk.toString().split('\r\n').filter(Boolean)) {
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') socket.write('250-parity.test\r\n250 8BITMIME\r\n');
        else if (verb === 'HELO') socket.write('250 parity.test\r\n');
        else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else if (verb === 'NOOP' || verb === 'RSET') socket.write('250 ok\r\n');
        else socket.write('502 not implemented\r\n');
      }
    });
    socket.on('error', () => {});
  });
  return { port: await listen(server), server };
}

/** Starts every target; `dir` holds the certificates. */
export async function startTargets(dir: string): Promise<Targets> {
  const serverTls = certificate(dir, 'server', 'localhost');
  const client = certificate(dir, 'client', 'parity-client');
  const handler = (req: IncomingMessage, res: ServerResponse) => void answer(req, res).catch(() => res.destroy());
  const http = createHttpServer(handler);
  const https = createHttpsServer({ key: serverTls.key, cert: serverTls.cert }, handler);
  const mtls = createHttpsServer({ key: serverTls.key, cert: serverTls.cert, ca: client.cert, requestCert: true, rejectUnauthorized: true }, handler);
  const tcp = createTcpServer((socket) => {
    socket.on('error', () => {});
    socket.end('hello\r\n');
  });
  const closedProbe = createTcpServer();
  const tcpClosed = await listen(closedProbe);
  await closeServer(closedProbe);
  const dns = await startDnsmasq();
  const ws = await startWebSockets();
  const smtp = await startSmtp();
  const grpc = await startGrpcTarget(dir);
  const docker = await startDocker();
  const ports = { http: await listen(http), https: await listen(https), mtls: await listen(mtls), tcpOpen: await listen(tcp) };
  return {
    ...ports,
    tcpClosed,
    dns: dns.port,
    ws: ws.port,
    smtp: smtp.port,
    grpc: grpc.port,
    docker: docker.docker,
    client,
    close: async () => {
      await docker.engine?.close();
      await grpc.close();
      dns.child.kill('SIGTERM');
      ws.wss.close();
      await Promise.all([http, https, mtls, ws.server].map((server) => closeServer(server)));
      await Promise.all([tcp, smtp.server].map((server) => closeServer(server)));
    },
  };
}
