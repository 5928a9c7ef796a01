import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { makeCertificates, type TestCertificates } from './support/certificates.js';
import { checkOf, closedPort, probe, startSilentServer, testEgress, timedProbe } from './support/probe-run.js';

/** A real WebSocket server (the `ws` package) answering "ping" with "pong", "slow" after 150 ms. */
function attachEchoServer(server: Server): WebSocketServer {
  const wss = new WebSocketServer({
    server,
    handleProtocols: (protocols) => (protocols.has('status.v1') ? 'status.v1' : false),
    verifyClient: ({ req }) => req.url !== '/forbidden',
  });
  wss.on('connection', (socket, request) => {
    if (request.url === '/closing') return socket.close(1011, 'overloaded');
    socket.on('message', (data) => {
      const text = data.toString();
      if (text === 'ping') socket.send('pong');
      if (text === 'slow') setTimeout(() => socket.send('pong'), 150);
      if (text === 'header') socket.send(`x-probe=${request.headers['x-probe'] ?? ''}`);
      if (text === 'huge') socket.send(`pong${'x'.repeat(1_048_576)}`);
      if (text === 'just-under') socket.send(`pong${'x'.repeat(1_048_576 - 4)}`);
    });
  });
  return wss;
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

describe('websocket probe against a real WebSocket server (ws)', () => {
  let server: Server;
  let base: string;
  let certificates: TestCertificates;
  let secure: Server;
  let secureBase: string;
  let wrongAccept: Server;
  let wrongAcceptBase: string;
  const socketServers: WebSocketServer[] = [];
  const upgraded = new Set<Socket>();
  beforeAll(async () => {
    server = createHttpServer();
    socketServers.push(attachEchoServer(server));
    base = `ws://127.0.0.1:${await listen(server)}`;
    certificates = makeCertificates();
    secure = createHttpsServer({ ...certificates.selfSigned });
    socketServers.push(attachEchoServer(secure));
    secureBase = `wss://localhost:${await listen(secure)}`;
    // A proxy-like server that answers the upgrade with a wrong Sec-WebSocket-Accept, then sends
    // one unmasked text frame "pong" (RFC 6455 framing, written by hand: the point is the bad header).
    wrongAccept = createHttpServer();
    wrongAccept.on('upgrade', (_request, socket: Socket) => {
      socket.write(
        'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: d3JvbmcgYWNjZXB0IHZhbHVlIQ==\r\n\r\n',
      );
      socket.write(Buffer.from([0x81, 4, ...Buffer.from('pong')]));
      socket.on('error', () => {});
      upgraded.add(socket);
    });
    wrongAcceptBase = `ws://127.0.0.1:${await listen(wrongAccept)}`;
  });
  afterAll(async () => {
    for (const socket of upgraded) socket.destroy();
    for (const wss of socketServers) {
      for (const client of wss.clients) client.terminate();
      wss.close();
    }
    for (const each of [server, secure, wrongAccept]) {
      each.closeAllConnections();
      await new Promise<void>((resolve) => each.close(() => resolve()));
    }
  });

  it('is up when the upgrade succeeds, and when the first reply holds the keyword', async () => {
    expect(await probe(checkOf('websocket', `${base}/live`))).toMatchObject({ status: 'up', message: 'connected' });
    const exchange = checkOf('websocket', `${base}/live`, { message: 'ping', keyword: { value: 'pong' }, subprotocols: ['status.v1'] });
    expect(await probe(exchange)).toMatchObject({ status: 'up', message: 'connected (subprotocol status.v1); reply matched' });
    const headers = checkOf('websocket', `${base}/live`, { headers: { 'X-Probe': 'yes' }, message: 'header', keyword: { value: 'x-probe=yes' } });
    expect((await probe(headers)).status).toBe('up');
  });

  it('is degraded when the reply comes later than degradedResponseMs', async () => {
    const result = await probe(checkOf('websocket', `${base}/live`, { message: 'slow', keyword: { value: 'pong' } }, { degradedResponseMs: 50 }));
    expect(result.status).toBe('degraded');
    expect(result.latencyMs).toBeGreaterThanOrEqual(140);
  });

  it('is down with the reason: keyword, refused upgrade, connection error', async () => {
    expect(await probe(checkOf('websocket', `${base}/live`, { message: 'ping', keyword: { value: 'hello' } }))).toMatchObject({
      status: 'down',
      message: 'keyword "hello" not found in the first reply',
    });
    expect(await probe(checkOf('websocket', `${base}/closing`, { message: 'ping', keyword: { value: 'pong' } }))).toMatchObject({
      status: 'down',
      message: 'the server closed the connection (1011 overloaded)',
    });
    expect(await probe(checkOf('websocket', `${base}/forbidden`))).toMatchObject({ status: 'down', message: 'expected status 101, got 401' });
    const port = await closedPort();
    expect(await probe(checkOf('websocket', `ws://127.0.0.1:${port}/`))).toMatchObject({ status: 'down', message: `connect ECONNREFUSED 127.0.0.1:${port}` });
  });

  it('fails a run whose server sends a message over 1 MiB, as an HTTP body is capped', async () => {
    expect(await probe(checkOf('websocket', `${base}/live`, { message: 'huge', keyword: { value: 'pong' } }))).toMatchObject({
      status: 'down',
      message: 'the connection ended without a close frame (1006): the server dropped it, or sent a message over 1 MiB',
    });
    expect(await probe(checkOf('websocket', `${base}/live`, { message: 'just-under', keyword: { value: 'pong' } }))).toMatchObject({ status: 'up' });
  });

  // Uptime Kuma's websocket-upgrade monitor (server/monitor-types/websocket-upgrade.js) closes
  // with 1000 once connected and checks the server's closing code against the accepted list.
  it('checks the closing code against expectedCloseCodes when set, and ignores it otherwise', async () => {
    expect((await probe(checkOf('websocket', `${base}/closing`))).status).toBe('up');
    expect(await probe(checkOf('websocket', `${base}/closing`, { expectedCloseCodes: [1000] }))).toMatchObject({
      status: 'down',
      message: 'the connection closed with code 1011, expected 1000',
    });
    expect((await probe(checkOf('websocket', `${base}/closing`, { expectedCloseCodes: ['1000-1999'] }))).status).toBe('up');
    expect(await probe(checkOf('websocket', `${base}/echo`, { expectedCloseCodes: [1000] }))).toMatchObject({
      status: 'up',
      message: 'connected; closed with code 1000',
    });
    expect((await probe(checkOf('websocket', `${base}/echo`, { expectedCloseCodes: [1001] }))).status).toBe('down');
  });

  it('verifies TLS unless ignoreTlsErrors', async () => {
    const strict = await probe(checkOf('websocket', `${secureBase}/live`), testEgress());
    expect(strict).toMatchObject({ status: 'down', message: 'DEPTH_ZERO_SELF_SIGNED_CERT: self-signed certificate' });
    const relaxed = await probe(checkOf('websocket', `${secureBase}/live`, { ignoreTlsErrors: true, message: 'ping', keyword: { value: 'pong' } }));
    expect(relaxed.status).toBe('up');
  });

  it('fails on a wrong Sec-WebSocket-Accept unless ignoreSecWebSocketAccept', async () => {
    const strict = await probe(checkOf('websocket', `${wrongAcceptBase}/`));
    expect(strict.status).toBe('down');
    expect(strict.message).toBe('wrong Sec-WebSocket-Accept header (ignoreSecWebSocketAccept tolerates it)');
    const tolerant = await probe(checkOf('websocket', `${wrongAcceptBase}/`, { ignoreSecWebSocketAccept: true, keyword: { value: 'pong' } }));
    expect(tolerant).toMatchObject({ status: 'up', message: 'connected; wrong Sec-WebSocket-Accept ignored; reply matched' });
  });

  it('ends a handshake that gets no answer at timeoutMs and closes the connection', async () => {
    const silent = await startSilentServer();
    try {
      const result = await timedProbe(checkOf('websocket', `ws://127.0.0.1:${silent.port}/`, {}, { timeoutMs: 300 }));
      expect(result).toMatchObject({ status: 'down', message: 'timeout after 300 ms' });
      expect(result.wallMs).toBeLessThan(1_000);
      await silent.allClosed();
    } finally {
      await silent.close();
    }
  });
});
