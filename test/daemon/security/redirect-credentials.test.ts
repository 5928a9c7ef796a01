import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';

const TOKEN = 'api-token-7c41e0b95d';

/** An HTTP server on `host` that records each request's headers and answers with `answer`. */
async function recorder(host: string, answer: (url: string) => { status: number; location?: string }) {
  const seen: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
  const server: Server = createServer((request, response) => {
    seen.push({ url: request.url ?? '', headers: request.headers });
    const { status, location } = answer(request.url ?? '');
    response.writeHead(status, location ? { location } : {}).end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { seen, origin: `http://${host}:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe.each(DATABASE_KINDS)('a test run of an HTTP check keeps its secrets at their origin [%s]', (kind) => {
  let daemon: TestDaemon;
  let admin: string;
  let first: Awaited<ReturnType<typeof recorder>>;
  let second: Awaited<ReturnType<typeof recorder>>;

  beforeAll(async () => {
    second = await recorder('127.0.0.2', () => ({ status: 200 }));
    first = await recorder('127.0.0.1', (url) =>
      url === '/away' ? { status: 307, location: `${second.origin}/landed` } : url === '/here' ? { status: 302, location: '/landed' } : { status: 200 },
    );
    daemon = await startTestDaemon(kind);
    admin = await daemon.adminToken();
    expect((await daemon.request('PUT', '/orgs/default/secrets/API_TOKEN', { token: admin, body: { value: TOKEN } })).status).toBeLessThan(300);
  });
  afterAll(async () => {
    await daemon?.stop();
    await first?.close();
    await second?.close();
  });

  const check = (path: string) => ({
    name: 'Redirected',
    type: 'http',
    target: `${first.origin}${path}`,
    config: { headers: { Authorization: 'Bearer {{secrets.API_TOKEN}}', 'x-API-key': '{{secrets.API_TOKEN}}', Cookie: 'session=1', 'X-Trace': 'plain' } },
  });

  it('sends none of the credential headers, nor any header holding the secret, to the origin a redirect names', async () => {
    const run = await daemon.request('POST', '/orgs/default/checks/test', { token: admin, body: check('/away') });
    expect(run.body).toMatchObject({ status: 'up' });
    expect(first.seen.at(-1)!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    const landed = second.seen.at(-1)!;
    expect(landed.url).toBe('/landed');
    expect(JSON.stringify(landed.headers)).not.toContain(TOKEN);
    expect(landed.headers).not.toHaveProperty('cookie');
    expect(landed.headers['x-trace']).toBe('plain');
  });

  it('keeps them on a redirect within the origin', async () => {
    const run = await daemon.request('POST', '/orgs/default/checks/test', { token: admin, body: check('/here') });
    expect(run.body).toMatchObject({ status: 'up' });
    const landed = first.seen.at(-1)!;
    expect(landed.url).toBe('/landed');
    expect(landed.headers).toMatchObject({ authorization: `Bearer ${TOKEN}`, 'x-api-key': TOKEN, cookie: 'session=1' });
  });
});
