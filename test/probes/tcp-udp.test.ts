import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkOf, closedPort, probe, startSilentServer, timedProbe } from './support/probe-run.js';

describe('tcp probe against a real local TCP server', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    // A line server: greets, answers "PING" with "PONG" and "SLOW" after 150 ms.
    server = createServer((socket) => {
      socket.on('error', () => {});
      socket.write('+OK ready\r\n');
      socket.on('data', (data) => {
        const line = data.toString().trim();
        if (line === 'PING') socket.write('PONG\r\n');
        if (line === 'SLOW') setTimeout(() => socket.write('PONG\r\n'), 150);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('is up when it connects, and when the reply holds the keyword', async () => {
    expect(await probe(checkOf('tcp', `127.0.0.1:${port}`))).toMatchObject({ status: 'up', message: `connected to 127.0.0.1:${port}` });
    const exchange = checkOf('tcp', `localhost:${port}`, { send: 'PING\r\n', keyword: { value: 'PONG' } });
    expect(await probe(exchange)).toMatchObject({ status: 'up', message: `connected to localhost:${port}; reply matched` });
  });

  it('is degraded when the reply comes later than degradedResponseMs', async () => {
    const result = await probe(checkOf('tcp', `127.0.0.1:${port}`, { send: 'SLOW\r\n', keyword: { value: 'PONG' } }, { degradedResponseMs: 50 }));
    expect(result.status).toBe('degraded');
    expect(result.message).toMatch(/^slow: \d+ ms, above 50 ms$/);
  });

  it('is down when the keyword is missing, or present when it must be absent', async () => {
    expect(await probe(checkOf('tcp', `127.0.0.1:${port}`, { send: 'HELLO\r\n', keyword: { value: 'PONG' } }))).toMatchObject({
      status: 'down',
      message: 'keyword "PONG" not found in the reply',
    });
    // The reply is read until the server pauses, but the latency runs to its last byte only.
    const absent = await probe(checkOf('tcp', `127.0.0.1:${port}`, { keyword: { value: '-ERR', expect: 'absent' } }, { degradedResponseMs: 200 }));
    expect(absent).toMatchObject({ status: 'up' });
    expect(absent.latencyMs).toBeLessThan(200);
    expect(await probe(checkOf('tcp', `127.0.0.1:${port}`, { keyword: { value: '+ok', caseSensitive: false, expect: 'absent' } }))).toMatchObject({
      status: 'down',
      message: 'keyword "+ok" found in the reply',
    });
  });

  it('is down with the connection error when nothing listens', async () => {
    const closed = await closedPort();
    expect(await probe(checkOf('tcp', `127.0.0.1:${closed}`))).toMatchObject({ status: 'down', message: `connect ECONNREFUSED 127.0.0.1:${closed}` });
  });

  it('ends a run whose reply never comes at timeoutMs and closes its connection', async () => {
    const silent = await startSilentServer();
    try {
      const result = await timedProbe(checkOf('tcp', `127.0.0.1:${silent.port}`, { send: 'PING', keyword: { value: 'PONG' } }, { timeoutMs: 300 }));
      expect(result).toMatchObject({ status: 'down', message: 'timeout after 300 ms' });
      expect(result.wallMs).toBeLessThan(1_000);
      expect(silent.accepted).toBe(1);
      await silent.allClosed();
    } finally {
      await silent.close();
    }
  });
});

describe('udp probe against a real local UDP server', () => {
  let server: UdpSocket;
  let port: number;
  beforeAll(async () => {
    // Answers "status" with "online", "slow" after 150 ms, and ignores anything else.
    server = createSocket('udp4');
    server.on('message', (message, peer) => {
      const text = message.toString();
      const answer = () => server.send('online players=3', peer.port, peer.address);
      if (text === 'status') answer();
      if (text === 'slow') setTimeout(answer, 150);
    });
    await new Promise<void>((resolve) => server.bind(0, '127.0.0.1', resolve));
    port = server.address().port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('is up on a reply holding the keyword', async () => {
    expect(await probe(checkOf('udp', `127.0.0.1:${port}`, { send: 'status', keyword: { value: 'online' } }))).toMatchObject({
      status: 'up',
      message: `reply from 127.0.0.1:${port} (16 bytes)`,
    });
  });

  it('is degraded on a late reply', async () => {
    const result = await probe(checkOf('udp', `127.0.0.1:${port}`, { send: 'slow' }, { degradedResponseMs: 50 }));
    expect(result.status).toBe('degraded');
  });

  it('is down when the reply lacks the keyword, or the port is closed', async () => {
    expect(await probe(checkOf('udp', `127.0.0.1:${port}`, { send: 'status', keyword: { value: 'offline' } }))).toMatchObject({
      status: 'down',
      message: 'keyword "offline" not found in the reply',
    });
    const closed = await closedPort();
    expect(await probe(checkOf('udp', `127.0.0.1:${closed}`, { send: 'status' }))).toMatchObject({ status: 'down', message: 'recvmsg ECONNREFUSED' });
  });

  it('ends a run with no reply at timeoutMs and closes its socket', async () => {
    const udpSockets = () => process.getActiveResourcesInfo().filter((name) => name === 'UDPWRAP').length;
    const before = udpSockets();
    const result = await timedProbe(checkOf('udp', `127.0.0.1:${port}`, { send: 'ignored' }, { timeoutMs: 300 }));
    expect(result).toMatchObject({ status: 'down', message: 'timeout after 300 ms' });
    expect(result.wallMs).toBeGreaterThanOrEqual(290);
    expect(result.wallMs).toBeLessThan(1_000);
    await new Promise((resolve) => setImmediate(resolve));
    expect(udpSockets()).toBe(before);
  });
});
