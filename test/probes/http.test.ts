import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCertificates, type KeyPair, type TestCertificates } from './support/certificates.js';
import { checkOf, closedPort, probe, startSilentServer, testEgress, timedProbe } from './support/probe-run.js';

type Handler = (request: IncomingMessage, response: ServerResponse, body: string) => void;

const json = (response: ServerResponse, status: number, value: unknown) => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(value));
};

const ROUTES: Record<string, Handler> = {
  '/ok': (_q, r) =>
    json(r, 200, {
      status: 'ok',
      version: '1.10',
      items: [
        { id: 1, state: 'up' },
        { id: 2, state: 'up' },
      ],
    }),
  '/slow': (_q, r) => setTimeout(() => json(r, 200, { status: 'ok' }), 150),
  '/fail': (_q, r) => json(r, 503, { status: 'down' }),
  '/text': (_q, r) => r.end('Hello World, all systems operational'),
  '/not-json': (_q, r) => r.end('<html>hi</html>'),
  '/echo': (q, r, body) =>
    json(r, 200, {
      method: q.method,
      authorization: q.headers.authorization ?? null,
      custom: q.headers['x-custom'] ?? null,
      agent: q.headers['user-agent'],
      body,
    }),
  '/redirect': (_q, r) => r.writeHead(302, { location: '/ok' }).end(),
  '/loop': (_q, r) => r.writeHead(302, { location: '/loop' }).end(),
  '/to-metadata': (_q, r) => r.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
  '/post-redirect': (_q, r) => r.writeHead(303, { location: '/echo' }).end(),
};

function handle(request: IncomingMessage, response: ServerResponse) {
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString()));
  request.on('end', () => {
    const route = ROUTES[new URL(request.url ?? '/', 'http://x').pathname];
    if (route) route(request, response, body);
    else json(response, 404, { error: 'not found' });
  });
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

describe('http probe against a real local HTTP server', () => {
  let server: Server;
  let base: string;
  /** Connections the server holds open now. */
  const open = new Set<Socket>();
  beforeAll(async () => {
    server = createHttpServer(handle);
    server.on('connection', (socket: Socket) => {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
    });
    base = `http://127.0.0.1:${await listen(server)}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('is up on an expected status, and says which', async () => {
    const result = await probe(checkOf('http', `${base}/ok`));
    expect(result).toMatchObject({ status: 'up', message: 'status 200' });
  });

  it('is degraded when slower than degradedResponseMs', async () => {
    const result = await probe(checkOf('http', `${base}/slow`, {}, { degradedResponseMs: 50 }));
    expect(result.status).toBe('degraded');
    expect(result.latencyMs).toBeGreaterThanOrEqual(140);
    expect(result.message).toMatch(/^slow: \d+ ms, above 50 ms$/);
  });

  it('is down on another status, with the expected list and the status got', async () => {
    const result = await probe(checkOf('http', `${base}/fail`));
    expect(result).toMatchObject({ status: 'down', message: 'expected status 200-299, got 503' });
    const accepted = await probe(checkOf('http', `${base}/fail`, { expectedStatusCodes: [200, '500-599'] }));
    expect(accepted.status).toBe('up');
  });

  it('is down with the connection error when nothing listens', async () => {
    const port = await closedPort();
    const result = await probe(checkOf('http', `http://127.0.0.1:${port}/`));
    expect(result).toMatchObject({ status: 'down', message: `connect ECONNREFUSED 127.0.0.1:${port}` });
  });

  it('ends a run that gets no answer at timeoutMs and closes its connection', async () => {
    const silent = await startSilentServer();
    try {
      const result = await timedProbe(checkOf('http', `http://127.0.0.1:${silent.port}/`, {}, { timeoutMs: 300 }));
      expect(result).toMatchObject({ status: 'down', message: 'timeout after 300 ms' });
      expect(result.wallMs).toBeGreaterThanOrEqual(290);
      expect(result.wallMs).toBeLessThan(1_000);
      expect(silent.accepted).toBe(1);
      await silent.allClosed();
    } finally {
      await silent.close();
    }
  });

  it('sends the method, headers, body and basic auth user', async () => {
    const check = checkOf('http', `${base}/echo`, {
      method: 'PUT',
      headers: { 'X-Custom': 'yes', 'User-Agent': 'custom-agent' },
      body: 'payload',
      basicAuthUser: 'monitor',
      jsonQueries: [
        { expression: 'method', expected: 'PUT' },
        { expression: 'custom', expected: 'yes' },
        { expression: 'agent', expected: 'custom-agent' },
        { expression: 'body', expected: 'payload' },
        { expression: 'authorization', expected: `Basic ${Buffer.from('monitor:').toString('base64')}` },
      ],
    });
    expect(await probe(check)).toMatchObject({ status: 'up' });
    const plain = checkOf('http', `${base}/echo`, {
      jsonQueries: [
        { expression: 'agent', expected: 'svc-monitor' },
        { expression: 'authorization', expected: 'null' },
      ],
    });
    expect(await probe(plain)).toMatchObject({ status: 'up' });
  });

  it('checks the keyword, present or absent, with or without case', async () => {
    const url = `${base}/text`;
    expect((await probe(checkOf('http', url, { keyword: { value: 'operational' } }))).status).toBe('up');
    expect(await probe(checkOf('http', url, { keyword: { value: 'hello world' } }))).toMatchObject({
      status: 'down',
      message: 'keyword "hello world" not found in the body',
    });
    expect((await probe(checkOf('http', url, { keyword: { value: 'hello world', caseSensitive: false } }))).status).toBe('up');
    expect(await probe(checkOf('http', url, { keyword: { value: 'World', expect: 'absent' } }))).toMatchObject({
      status: 'down',
      message: 'keyword "World" found in the body',
    });
  });

  it('evaluates JSONata queries with every operator', async () => {
    const url = `${base}/ok`;
    const holds = [
      { expression: 'status', operator: '==', expected: 'ok' },
      { expression: 'status', operator: '!=', expected: 'down' },
      { expression: '$count(items)', operator: '>=', expected: 2 },
      { expression: '$count(items)', operator: '<', expected: '3' },
      { expression: 'version', operator: '>', expected: '1.05' },
      { expression: 'version', operator: '<=', expected: 1.1 },
      { expression: 'items.state', operator: 'contains', expected: 'up' },
      { expression: 'items[id=2].state', operator: '==', expected: 'up' },
    ];
    expect(await probe(checkOf('http', url, { jsonQueries: holds }))).toMatchObject({ status: 'up', message: 'status 200' });
    expect(await probe(checkOf('http', url, { jsonQueries: [{ expression: 'status', expected: 'fine' }] }))).toMatchObject({
      status: 'down',
      message: 'JSON status is "ok", expected == "fine"',
    });
    expect(await probe(checkOf('http', url, { jsonQueries: [{ expression: 'missing.field', expected: 'x' }] }))).toMatchObject({
      status: 'down',
      message: 'JSON missing.field is nothing, expected == "x"',
    });
    const runaway = await probe(checkOf('http', url, { jsonQueries: [{ expression: '($f := function($x){ $f($x + 1) }; $f(1))', expected: '1' }] }));
    expect(runaway.status).toBe('down');
    expect(runaway.message).toMatch(/^JSON query .* failed: (Evaluation timeout after 100 milliseconds|Stack overflow)/);
    expect(await probe(checkOf('http', `${base}/not-json`, { jsonQueries: [{ expression: 'a', expected: 'b' }] }))).toMatchObject({
      status: 'down',
      message: 'the response body is not JSON',
    });
  });

  it('follows redirects up to maxRedirects, or checks the redirect itself', async () => {
    expect(await probe(checkOf('http', `${base}/redirect`, { keyword: { value: '"ok"' } }))).toMatchObject({ status: 'up' });
    expect(await probe(checkOf('http', `${base}/redirect`, { followRedirects: false }))).toMatchObject({
      status: 'down',
      message: 'expected status 200-299, got 302',
    });
    expect(await probe(checkOf('http', `${base}/loop`, { maxRedirects: 3 }))).toMatchObject({
      status: 'down',
      message: 'more than 3 redirects',
    });
    const afterPost = await probe(
      checkOf('http', `${base}/post-redirect`, { method: 'POST', body: 'x', jsonQueries: [{ expression: 'method', expected: 'GET' }] }),
    );
    expect(afterPost.status).toBe('up');
  });

  it('closes its connections once the run is over, with the body read or dropped, redirects included', async () => {
    // A run owns its connections (probes/http-dispatcher.ts): none is kept for the next run.
    await expect.poll(() => open.size).toBe(0);
    expect((await probe(checkOf('http', `${base}/ok`))).status).toBe('up');
    expect((await probe(checkOf('http', `${base}/redirect`, { keyword: { value: 'ok' } }))).status).toBe('up');
    await expect.poll(() => open.size).toBe(0);
  });

  it('sends HEAD without a body, and says that domain expiry is left to domain checks', async () => {
    const result = await probe(checkOf('http', `${base}/ok`, { method: 'HEAD', domainExpiryDays: 30 }));
    expect(result).toMatchObject({ status: 'up', message: 'status 200; domain expiry is checked by domain checks, not here' });
  });

  it('counts a failure as up in upside-down mode', async () => {
    expect(await probe(checkOf('http', `${base}/fail`, { invert: true }))).toMatchObject({
      status: 'up',
      message: 'upside-down: expected status 200-299, got 503 (counts as up)',
    });
  });
});

describe('http probe against real local HTTPS servers', () => {
  let certificates: TestCertificates;
  const servers: Server[] = [];
  const urls: Record<'valid' | 'expiringSoon' | 'expired' | 'selfSigned', string> = {} as never;
  beforeAll(async () => {
    certificates = makeCertificates();
    for (const name of ['valid', 'expiringSoon', 'expired', 'selfSigned'] as const) {
      const pair: KeyPair = certificates[name];
      const server = createHttpsServer({ ...pair }, handle);
      servers.push(server);
      urls[name] = `https://localhost:${await listen(server)}/ok`;
    }
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  });
  const trusting = () => testEgress({ extraCaCertificates: [certificates.ca] });

  it('is up on a certificate the policy trusts, and reports its remaining days', async () => {
    const result = await probe(checkOf('http', urls.valid, { certificateExpiryDays: 30 }), trusting());
    expect(result.status).toBe('up');
    expect(result.message).toMatch(/^status 200; certificate valid for (89|90) more days$/);
  });

  it('is down when the certificate expires within certificateExpiryDays', async () => {
    const result = await probe(checkOf('http', urls.expiringSoon, { certificateExpiryDays: 14 }), trusting());
    expect(result.status).toBe('down');
    expect(result.message).toMatch(/^certificate expires in [45] days \(\d{4}-\d\d-\d\d\), threshold 14 days$/);
  });

  it('is down on an expired or untrusted certificate unless ignoreTlsErrors', async () => {
    expect(await probe(checkOf('http', urls.expired), trusting())).toMatchObject({ status: 'down', message: 'CERT_HAS_EXPIRED: certificate has expired' });
    expect(await probe(checkOf('http', urls.selfSigned), trusting())).toMatchObject({
      status: 'down',
      message: 'DEPTH_ZERO_SELF_SIGNED_CERT: self-signed certificate',
    });
    expect(await probe(checkOf('http', urls.valid))).toMatchObject({
      status: 'down',
      message: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE: unable to verify the first certificate',
    });
    expect((await probe(checkOf('http', urls.expired, { ignoreTlsErrors: true }))).status).toBe('up');
    expect((await probe(checkOf('http', urls.selfSigned, { ignoreTlsErrors: true }))).status).toBe('up');
  });

  it('checks the certificate on every run, also when an earlier run left a TLS session to resume', async () => {
    // One policy for all runs, as in the daemon: its connectors keep TLS sessions between runs.
    const egress = trusting();
    expect((await probe(checkOf('http', urls.expiringSoon), egress)).status).toBe('up');
    for (let run = 0; run < 2; run++) {
      const result = await probe(checkOf('http', urls.expiringSoon, { certificateExpiryDays: 14 }), egress);
      expect(result.status).toBe('down');
      expect(result.message).toMatch(/^certificate expires in [45] days/);
    }
  });

  it('still reports an expired certificate under ignoreTlsErrors when certificateExpiryDays is set', async () => {
    const result = await probe(checkOf('http', urls.expired, { ignoreTlsErrors: true, certificateExpiryDays: 7 }));
    expect(result).toMatchObject({ status: 'down' });
    expect(result.message).toMatch(/^certificate expired on \d{4}-\d\d-\d\d$/);
  });
});
