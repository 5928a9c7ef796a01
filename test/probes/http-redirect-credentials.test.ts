import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { substituteSecrets } from '../../daemon/secrets/substitute.js';
import { runProbe } from '../../probes/run-probe.js';
import { checkOf, testEgress } from './support/probe-run.js';

const SECRET = 'tok-3f9a1c77e2';
const OTHER_SECRET = 'custom-5d1e08aa';

/** A server on `host` that records the headers of every request and answers with `handler`. */
async function recordingServer(host: string, handler: (url: string) => { status: number; location?: string }) {
  const seen: Array<{ url: string; headers: IncomingHttpHeaders; body: string }> = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      seen.push({ url: request.url ?? '', headers: request.headers, body });
      const { status, location } = handler(request.url ?? '');
      response.writeHead(status, location ? { location } : {}).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, seen, origin: `http://${host}:${(server.address() as AddressInfo).port}` };
}

describe('http probe: credentials on redirects (two loopback origins)', () => {
  let first: Awaited<ReturnType<typeof recordingServer>>;
  let second: Awaited<ReturnType<typeof recordingServer>>;
  beforeAll(async () => {
    second = await recordingServer('127.0.0.2', () => ({ status: 200 }));
    first = await recordingServer('127.0.0.1', (url) => {
      if (url === '/away') return { status: 302, location: `${second.origin}/landed` };
      if (url === '/away-keeping-body') return { status: 307, location: `${second.origin}/landed` };
      if (url === '/here') return { status: 302, location: '/landed' };
      return { status: 200 };
    });
  });
  afterAll(async () => {
    await new Promise((resolve) => first.server.close(resolve));
    await new Promise((resolve) => second.server.close(resolve));
  });

  const headers = {
    Authorization: 'Bearer {{secrets.API_TOKEN}}',
    'X-Api-Key': '{{secrets.API_TOKEN}}',
    'Proxy-Authorization': 'Basic {{secrets.PROXY}}',
    COOKIE: 'session=abc',
    'X-Custom-Token': 'v1 {{secrets.CUSTOM}}',
    'X-Trace': 'plain',
  };
  const secrets = new Map([
    ['API_TOKEN', SECRET],
    ['PROXY', 'cHJveHk6cGFzcw=='],
    ['CUSTOM', OTHER_SECRET],
  ]);
  // As the runner does it: the references replaced by the organization's values, then the run.
  const run = (path: string, config: Record<string, unknown> = {}) => {
    const prepared = substituteSecrets(checkOf('http', `${first.origin}${path}`, { headers, ...config }), secrets);
    return runProbe(prepared.check, { egress: testEgress(), secretValues: prepared.secretValues });
  };

  it('drops every credential header (any case) and every header holding a secret on a hop to another origin', async () => {
    second.seen.length = 0;
    expect(await run('/away')).toMatchObject({ status: 'up' });
    expect(first.seen.at(-1)!.headers.authorization).toBe(`Bearer ${SECRET}`);
    const landed = second.seen.at(-1)!;
    expect(landed.url).toBe('/landed');
    for (const name of ['authorization', 'x-api-key', 'proxy-authorization', 'cookie', 'x-custom-token']) expect(landed.headers[name], name).toBeUndefined();
    expect(JSON.stringify(landed.headers)).not.toContain(SECRET);
    expect(JSON.stringify(landed.headers)).not.toContain(OTHER_SECRET);
    expect(landed.headers['x-trace']).toBe('plain');
  });

  it('drops the basic-auth header built from the check on a hop to another origin', async () => {
    second.seen.length = 0;
    expect(await run('/away', { headers: {}, basicAuthUser: 'me', basicAuthPassword: '{{secrets.API_TOKEN}}' })).toMatchObject({ status: 'up' });
    expect(second.seen.at(-1)!.headers.authorization).toBeUndefined();
  });

  it('keeps them on a redirect within the same origin', async () => {
    const before = first.seen.length;
    expect(await run('/here')).toMatchObject({ status: 'up' });
    const landed = first.seen.slice(before).find((request) => request.url === '/landed')!;
    expect(landed.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(landed.headers['x-api-key']).toBe(SECRET);
    expect(landed.headers.cookie).toBe('session=abc');
    expect(landed.headers['x-custom-token']).toBe(`v1 ${OTHER_SECRET}`);
  });

  it('does not resend a body holding a secret to another origin (307), and says why', async () => {
    second.seen.length = 0;
    // References are accepted in credential fields only, so the body holds the value itself (typed
    // in, or a check stored before that rule); a header's reference makes it one of the run's secrets.
    const result = await run('/away-keeping-body', { method: 'POST', body: `{"token":"${SECRET}"}` });
    expect(result.status).toBe('down');
    expect(result.message).toBe(`redirect to another origin (${second.origin}) would send a request body that holds a secret`);
    expect(second.seen).toHaveLength(0);
  });
});
