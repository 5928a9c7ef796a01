import { createSocket } from 'node:dgram';
import { createServer as createHttpServer, request, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import type { EgressPolicy } from '../../probes/egress.js';
import { ProbeFailure } from '../../probes/probe.js';
import { runProbe } from '../../probes/run-probe.js';
import { browserSkipReason } from '../support/browser.js';
import { loopbackEgress, probeCheck, runCheck } from '../support/probe-runs.js';
import { makeCertificates } from './support/certificates.js';

const skip = browserSkipReason();

const browser = (target: string, config: Record<string, unknown> = {}) =>
  ({ name: 'page behind the egress policy', type: 'browser', target, config, thresholds: { timeoutMs: 15_000 } }) as const;

const UNSPECIFIED = /^egress policy refuses 0\.0\.0\.0 \(link-local, metadata or unspecified address\)$/;

/**
 * A server the policy refuses: it listens on 127.0.0.1, which Linux also reaches as 0.0.0.0, an
 * address the policy always refuses. It counts every TCP connection, whatever comes over it.
 */
interface RefusedServer {
  /** `0.0.0.0:port`, the refused spelling of its address. */
  authority: string;
  /**
   * Connections made to it since the last call, by anyone but this test: counted after a
   * sentinel connection of the test's own, so that any connection made before it has surely
   * been accepted and counted.
   */
  connectionsBefore(): Promise<number>;
  close(): Promise<void>;
}

async function startRefusedServer(): Promise<RefusedServer> {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server = createHttpServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>SECRET inside</title><p>INSIDE-SECRET</p>');
  });
  server.on('connection', (socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    authority: `0.0.0.0:${port}`,
    async connectionsBefore() {
      await new Promise<void>((resolve, reject) => {
        request({ host: '127.0.0.1', port, path: '/sentinel', agent: false }, (res) => res.resume().on('end', resolve))
          .on('error', reject)
          .end();
      });
      const before = connections - 1;
      connections = 0;
      return before;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A UDP socket on 127.0.0.1 that counts datagrams: WebRTC's STUN and TURN over UDP would reach it. */
async function startUdpCounter() {
  let datagrams = 0;
  const socket = createSocket('udp4');
  socket.on('message', (message) => {
    if (message.toString() !== 'sentinel') datagrams++;
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  return {
    port,
    /** Datagrams from anyone but this test, counted once the test's own sentinel datagram has arrived. */
    async datagramsBefore(): Promise<number> {
      const arrived = new Promise<void>((resolve) => socket.once('message', () => resolve()));
      socket.send('sentinel', port, '127.0.0.1');
      await arrived;
      return datagrams;
    },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

/** Pages on an allowed server (127.0.0.1) that try to reach the refused one; it logs every path requested. */
function pages(refused: RefusedServer, log: string[], udpPort: () => number) {
  const html = (body: string) => `<!doctype html><title>start</title><body>${body}</body>`;
  return (req: IncomingMessage, res: import('node:http').ServerResponse) => {
    const path = req.url ?? '/';
    log.push(path);
    const page = (body: string) => res.writeHead(200, { 'content-type': 'text/html' }).end(html(body));
    if (path.startsWith('/to?')) return res.writeHead(302, { location: path.slice(4) }).end();
    switch (path) {
      case '/redirect':
        return res.writeHead(302, { location: `http://${refused.authority}/secret` }).end();
      case '/redirect-tls':
        return res.writeHead(302, { location: `https://${refused.authority}/secret` }).end();
      case '/script-redirect':
        return page(`<script>location = 'http://${refused.authority}/secret';</script>`);
      case '/bounce':
        return res.writeHead(302, { location: `http://${refused.authority}/secret` }).end();
      case '/fetch':
        return page(`<p id="out">waiting</p><script>
          fetch('/bounce').then((r) => r.text(), () => 'fetch failed').then((text) =>
            fetch('/sentinel-fetch').then(() => { document.title = 'fetched: ' + text; document.getElementById('out').textContent = text; }));
        </script>`);
      case '/websocket':
        return page(`<script>
          const socket = new WebSocket('ws://${refused.authority}/socket');
          let done = false;
          const finish = (how) => { if (done) return; done = true; fetch('/sentinel-websocket').then(() => { document.title = 'websocket ' + how; }); };
          socket.onopen = () => finish('open');
          socket.onerror = () => finish('failed');
          socket.onclose = () => finish('closed');
        </script>`);
      case '/hold-websocket':
        return page(`<p>connecting</p><script>
          const socket = new WebSocket('ws://' + location.host + '/held');
          socket.onopen = () => { document.title = 'held open'; document.querySelector('p').textContent = 'socket open'; };
        </script>`);
      case '/webrtc':
        return page(`<script>
          const connection = new RTCPeerConnection({ iceServers: [
            { urls: 'stun:127.0.0.1:${udpPort()}' },
            { urls: ['turn:127.0.0.1:${udpPort()}?transport=udp', 'turn:${refused.authority}?transport=tcp'], username: 'u', credential: 'c' },
          ] });
          connection.createDataChannel('probe');
          connection.onicegatheringstatechange = () => {
            if (connection.iceGatheringState === 'complete') fetch('/sentinel-webrtc').then(() => { document.title = 'gathered'; });
          };
          connection.createOffer().then((offer) => connection.setLocalDescription(offer));
        </script>`);
      case '/plain':
        return page('<p>plain page ' + 'rendered</p>');
      default:
        res.writeHead(404).end();
    }
  };
}

/** The single-tenant policy, which also refuses one loopback address (as a deny-private one would all of them). */
function refusing(refusedAddress: string): EgressPolicy {
  const refusal = (address: string) => (address === refusedAddress ? `egress policy refuses ${address} (test)` : loopbackEgress.refusal(address));
  return {
    ...loopbackEgress,
    refusal,
    async resolve(host) {
      const answer = await loopbackEgress.resolve(host);
      const why = refusal(answer.address);
      if (why) throw new ProbeFailure(why);
      return answer;
    },
  };
}

describe.skipIf(skip)('browser checks behind the egress policy (real Chromium, local servers)', () => {
  let refused: RefusedServer;
  let allowed: Server;
  let base: string;
  const log: string[] = [];
  let held: WebSocketServer;
  let udp: Awaited<ReturnType<typeof startUdpCounter>>;
  beforeAll(async () => {
    refused = await startRefusedServer();
    udp = await startUdpCounter();
    allowed = createHttpServer(pages(refused, log, () => udp.port));
    held = new WebSocketServer({ server: allowed, path: '/held' });
    await new Promise<void>((resolve) => allowed.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(allowed.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    held.close();
    allowed.closeAllConnections();
    await new Promise((resolve) => allowed.close(resolve));
    await refused.close();
    await udp.close();
  });

  it('is down with the policy message when the page redirects (302) to a refused address, which sees no request', async () => {
    const result = await runCheck(probeCheck(browser(`${base}/redirect`)));
    expect(result.status).toBe('down');
    expect(result.message).toMatch(UNSPECIFIED);
    expect(await refused.connectionsBefore()).toBe(0);
  });

  it('is down with the policy message when the redirect goes to https on a refused address (a refused tunnel)', async () => {
    const result = await runCheck(probeCheck(browser(`${base}/redirect-tls`)));
    expect(result.status).toBe('down');
    expect(result.message).toMatch(UNSPECIFIED);
    expect(await refused.connectionsBefore()).toBe(0);
  });

  it('sends loopback through the policy too (Chromium does not bypass the proxy for it)', async () => {
    const second = createHttpServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<title>SECRET inside</title>'));
    let connections = 0;
    second.on('connection', () => connections++);
    await new Promise<void>((resolve) => second.listen(0, '127.0.0.2', resolve));
    try {
      const port = (second.address() as AddressInfo).port;
      const result = await runProbe(probeCheck(browser(`${base}/to?http://127.0.0.2:${port}/secret`)), { egress: refusing('127.0.0.2') });
      expect(result).toMatchObject({ status: 'down', message: 'egress policy refuses 127.0.0.2 (test)' });
      // The test's own request, after the run: the only connection the server has seen.
      await new Promise<void>((resolve, reject) =>
        request(`http://127.0.0.2:${port}/`, (res) => res.resume().on('end', resolve))
          .on('error', reject)
          .end(),
      );
      expect(connections).toBe(1);
    } finally {
      second.closeAllConnections();
      await new Promise((resolve) => second.close(resolve));
    }
  });

  it("is down with the policy message when the page's script sets location to a refused address", async () => {
    const result = await runCheck(probeCheck(browser(`${base}/script-redirect`, { waitUntil: 'networkidle' })));
    expect(result.status).toBe('down');
    expect(result.message).toMatch(UNSPECIFIED);
    expect(result.message).not.toContain('SECRET');
    expect(await refused.connectionsBefore()).toBe(0);
  });

  it("refuses where a script's fetch() is redirected, so nothing of the refused server reaches the title or keyword", async () => {
    const result = await runCheck(probeCheck(browser(`${base}/fetch`, { waitUntil: 'networkidle', keyword: { value: 'INSIDE-SECRET', expect: 'absent' } })));
    // The script went on past the refused request (its sentinel arrived), and read only the refusal.
    expect(log).toContain('/sentinel-fetch');
    expect(result).toMatchObject({ status: 'up' });
    expect(result.message).toMatch(/^200 "fetched: /);
    expect(result.message).not.toContain('SECRET');
    expect(await refused.connectionsBefore()).toBe(0);
  });

  it('refuses a WebSocket that the page opens to a refused address', async () => {
    const result = await runCheck(probeCheck(browser(`${base}/websocket`, { waitUntil: 'networkidle' })));
    expect(log).toContain('/sentinel-websocket');
    expect(result.message).not.toBe('200 "websocket open"');
    expect(result.status).toBe('up');
    expect(await refused.connectionsBefore()).toBe(0);
  });

  it('lets WebRTC send no UDP at all (STUN, TURN), and its TCP only through the policy', async () => {
    const result = await runCheck(probeCheck(browser(`${base}/webrtc`, { waitUntil: 'networkidle' })));
    expect(log).toContain('/sentinel-webrtc');
    expect(result).toMatchObject({ status: 'up', message: '200 "gathered"' });
    expect(await udp.datagramsBefore()).toBe(0);
    expect(await refused.connectionsBefore()).toBe(0);
  });

  it('loads plain http pages through the proxy, WebSockets included, and closes their connections when the run ends', async () => {
    // Every host the browser asked the proxy for: the page's, and none of Chromium's own services (Google's hosts).
    const asked: string[] = [];
    const recording: EgressPolicy = {
      ...loopbackEgress,
      resolve: (host) => {
        asked.push(host);
        return loopbackEgress.resolve(host);
      },
    };
    const plain = await runProbe(probeCheck(browser(`${base}/plain`, { keyword: { value: 'plain page rendered' } })), { egress: recording });
    expect(plain).toMatchObject({ status: 'up', message: '200 "start"' });
    expect(asked).toContain('127.0.0.1');
    expect(asked.filter((host) => host !== '127.0.0.1' && host !== '0.0.0.0')).toEqual([]);
    const sockets: Array<{ closed: boolean }> = [];
    const watch = (socket: import('ws').WebSocket) => {
      const state = { closed: false };
      sockets.push(state);
      socket.on('close', () => (state.closed = true));
    };
    held.on('connection', watch);
    try {
      const result = await runCheck(probeCheck(browser(`${base}/hold-websocket`, { waitUntil: 'networkidle', keyword: { value: 'socket open' } })));
      expect(result).toMatchObject({ status: 'up', message: '200 "held open"' });
      expect(sockets.length).toBe(1);
      await expect.poll(() => sockets.every((socket) => socket.closed), { timeout: 5000 }).toBe(true);
    } finally {
      held.off('connection', watch);
    }
  });

  describe('https', () => {
    let tls: import('node:https').Server;
    let tlsBase: string;
    beforeAll(async () => {
      const { selfSigned } = makeCertificates();
      tls = createHttpsServer(selfSigned, (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Secure</title><p>over TLS</p>');
      });
      await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
      tlsBase = `https://127.0.0.1:${(tls.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      tls.closeAllConnections();
      await new Promise((resolve) => tls.close(resolve));
    });

    it('loads a self-signed https page through the proxy with ignoreTlsErrors, and refuses it without', async () => {
      expect(await runCheck(probeCheck(browser(`${tlsBase}/`, { ignoreTlsErrors: true, keyword: { value: 'over TLS' } })))).toMatchObject({
        status: 'up',
        message: '200 "Secure"',
      });
      const strict = await runCheck(probeCheck(browser(`${tlsBase}/`)));
      expect(strict.status).toBe('down');
      expect(strict.message).toMatch(/^the page did not load: net::ERR_CERT_/);
    });
  });
});
