import { createServer, request, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserEgressProxy } from '../../probes/browser-egress-proxy.js';
import type { EgressPolicy } from '../../probes/egress.js';
import { loopbackEgress } from '../support/probe-runs.js';

/** The loopback policy with every look-up held until the test releases it. */
function heldPolicy() {
  const waiting: Array<() => void> = [];
  const policy: EgressPolicy = {
    ...loopbackEgress,
    resolve: async (host) => {
      await new Promise<void>((resolve) => waiting.push(resolve));
      return loopbackEgress.resolve(host);
    },
  };
  return {
    policy,
    held: () => waiting.length,
    release: () => {
      for (const resolve of waiting.splice(0)) resolve();
    },
  };
}

/** Sends a raw request to the proxy; resolves once the proxy ends or drops the connection. */
function ask(proxyUrl: string, options: { method: string; path: string; headers?: Record<string, string> }) {
  const { port } = new URL(proxyUrl);
  return new Promise<void>((resolve) => {
    const req = request({ host: '127.0.0.1', port: Number(port), agent: false, ...options });
    const done = () => resolve();
    req.on('error', done).on('close', done).on('connect', done).on('upgrade', done);
    req.on('response', (res) => res.resume().on('close', done));
    req.end();
  });
}

describe('the browser egress proxy once closed', () => {
  let target: Server;
  let authority: string;
  let connections = 0;
  const sockets = new Set<Socket>();
  beforeAll(async () => {
    target = createServer((_req, res) => res.end('inside'));
    target.on('connection', (socket) => {
      connections++;
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    authority = `127.0.0.1:${(target.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    target.closeAllConnections();
    await new Promise((resolve) => target.close(resolve));
  });

  it('connects nothing upstream for requests whose address was still being vetted when it closed (CONNECT, forward, upgrade)', async () => {
    const { policy, held, release } = heldPolicy();
    const proxy = await startBrowserEgressProxy(policy);
    connections = 0;
    const asked = [
      ask(proxy.url, { method: 'CONNECT', path: authority }),
      ask(proxy.url, { method: 'GET', path: `http://${authority}/page` }),
      ask(proxy.url, { method: 'GET', path: `http://${authority}/socket`, headers: { connection: 'Upgrade', upgrade: 'websocket' } }),
    ];
    await expect.poll(held, { timeout: 5000 }).toBe(3);
    await proxy.close();
    release();
    await Promise.all(asked);
    // A connection the proxy made after closing would have reached the target by now: the clients saw theirs end.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(connections).toBe(0);
    expect(sockets.size).toBe(0);
  });

  it('still connects while open', async () => {
    const { policy, held, release } = heldPolicy();
    const proxy = await startBrowserEgressProxy(policy);
    connections = 0;
    const asked = ask(proxy.url, { method: 'GET', path: `http://${authority}/page` });
    await expect.poll(held, { timeout: 5000 }).toBe(1);
    release();
    await asked;
    expect(connections).toBe(1);
    await proxy.close();
  });
});
