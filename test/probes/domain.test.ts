import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProbeCaches, type ProbeCaches } from '../../probes/probe-caches.js';
import { freePort } from '../support/local-servers.js';
import { expectTimeoutTearsDown, probeCheck, runCheck, startSilentListener, type SilentListener } from '../support/probe-runs.js';

const DAY = 86_400_000;

const domain = (target: string, config: Record<string, unknown> = {}, timeoutMs = 5000) =>
  ({ name: 'registration', type: 'domain', target, config, thresholds: { timeoutMs } }) as const;

describe('domain probe against a protocol-level fake RDAP server and bootstrap file', () => {
  let server: Server;
  let base: string;
  const expirations = new Map<string, number | undefined>();
  const requests: string[] = [];
  // What the runner keeps between runs, with the bootstrap file of the fake server.
  let caches: ProbeCaches;
  const run = (check: ReturnType<typeof domain>) => runCheck(probeCheck(check), [], caches);
  beforeAll(async () => {
    server = createServer((req, res) => {
      requests.push(req.url ?? '');
      if (req.url === '/bootstrap/dns.json') {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ version: '1.0', services: [[['com', 'example'], [`${base}/rdap/`]]] }));
        return;
      }
      if (req.url === '/other-bootstrap/dns.json') {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ version: '1.0', services: [[['net'], [`${base}/rdap/`]]] }));
        return;
      }
      const name = /^\/rdap\/domain\/([^/]+)$/.exec(req.url ?? '')?.[1];
      if (!name || !expirations.has(name)) {
        res.statusCode = 404;
        res.setHeader('content-type', 'application/rdap+json');
        res.end(JSON.stringify({ errorCode: 404, title: 'Not Found' }));
        return;
      }
      const expires = expirations.get(name);
      const events = [{ eventAction: 'registration', eventDate: '2001-02-03T04:05:06Z' }];
      if (expires !== undefined) events.push({ eventAction: 'expiration', eventDate: new Date(expires).toISOString() });
      res.setHeader('content-type', 'application/rdap+json');
      res.end(JSON.stringify({ objectClassName: 'domain', ldhName: name.toUpperCase(), events }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    caches = createProbeCaches({ rdapBootstrapUrl: `${base}/bootstrap/dns.json` });
    expirations.set('shop.com', Date.now() + 200 * DAY + 3600_000);
    expirations.set('soon.com', Date.now() + 10 * DAY + 3600_000);
    expirations.set('gone.com', Date.now() - 2 * DAY);
    expirations.set('quiet.com', undefined);
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('is up with the days left, and reads the bootstrap file once', async () => {
    const result = await run(domain('shop.com'));
    expect(result.status, result.message).toBe('up');
    expect(result.message).toMatch(/^shop\.com expires in 200 days \(\d{4}-\d{2}-\d{2}\)$/);
    await run(domain('SHOP.com'));
    expect(requests.filter((url) => url.startsWith('/bootstrap')).length).toBe(1);
  });

  it("keeps each app's bootstrap file apart: another cache reads its own address", async () => {
    const other = createProbeCaches({ rdapBootstrapUrl: `${base}/other-bootstrap/dns.json` });
    expect(await runCheck(probeCheck(domain('shop.com')), [], other)).toMatchObject({ status: 'down', message: 'no RDAP server is known for .com' });
    expect((await run(domain('shop.com'))).status).toBe('up');
    expect(requests.filter((url) => url.startsWith('/other-bootstrap')).length).toBe(1);
  });

  it('is down within the threshold, after expiry, when unregistered, and without an expiration date', async () => {
    const soon = await run(domain('soon.com'));
    expect(soon.status).toBe('down');
    expect(soon.message).toMatch(/^soon\.com expires in 10 days \(.*\), within 30$/);
    expect((await run(domain('soon.com', { expiryThresholdDays: 7 }))).status).toBe('up');
    expect((await run(domain('gone.com'))).message).toMatch(/^gone\.com expired on \d{4}-\d{2}-\d{2}$/);
    expect(await run(domain('nobody.com'))).toMatchObject({
      status: 'down',
      message: 'nobody.com is not registered (the registry does not know it)',
    });
    expect(await run(domain('quiet.com'))).toMatchObject({
      status: 'down',
      message: 'the registry publishes no expiration date for quiet.com',
    });
    expect(await run(domain('example.org'))).toMatchObject({ status: 'down', message: 'no RDAP server is known for .org' });
  });
});

describe('domain probe, refused and timeout', () => {
  let listener: SilentListener;
  beforeAll(async () => {
    listener = await startSilentListener();
  });
  afterAll(() => listener.close());

  it('is down when the bootstrap server refuses connections', async () => {
    const port = await freePort();
    const caches = createProbeCaches({ rdapBootstrapUrl: `http://127.0.0.1:${port}/dns.json` });
    expect(await runCheck(probeCheck(domain('shop.com')), [], caches)).toMatchObject({ status: 'down', message: `connect ECONNREFUSED 127.0.0.1:${port}` });
  });

  it('ends at thresholds.timeoutMs against a server that never answers, and closes its socket', async () => {
    const caches = createProbeCaches({ rdapBootstrapUrl: `http://127.0.0.1:${listener.port}/dns.json` });
    await expectTimeoutTearsDown(probeCheck(domain('shop.com', {}, 500)), listener, caches);
  });
});
