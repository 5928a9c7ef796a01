import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEgressPolicy } from '../../probes/egress.js';
import { probeAvailability } from '../../probes/registry.js';
import { runProbe } from '../../probes/run-probe.js';
import { browserSkipReason } from '../support/browser.js';
import { freePort } from '../support/local-servers.js';
import { expectTimeoutTearsDown, probeCheck, runCheck, startSilentListener, type SilentListener } from '../support/probe-runs.js';

const skip = browserSkipReason();

const browser = (target: string, config: Record<string, unknown> = {}, timeoutMs = 15_000) =>
  ({ name: 'checkout', type: 'browser', target, config, thresholds: { timeoutMs } }) as const;

// The order button is rendered by script: only a real browser sees it.
const CHECKOUT = `<!doctype html><title>Checkout</title><body><main id="app"></main>
<script>document.getElementById('app').textContent = 'Place' + ' order';</script></body>`;

describe.skipIf(skip)('browser probe with Debian Chromium against a local web server', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      res.setHeader('content-type', 'text/html');
      if (req.url === '/checkout') return res.end(CHECKOUT);
      res.statusCode = 404;
      res.end('<!doctype html><title>Not found</title><p>nothing here</p>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(
    () =>
      new Promise((resolve) => {
        // A connection Chromium opened ahead and never used would hold close() until it times out.
        server.closeAllConnections();
        server.close(resolve);
      }),
  );

  it('reports the type runnable', async () => {
    expect(await probeAvailability('browser')).toEqual({ runnable: true });
  });

  it('is up when the rendered page holds the keyword', async () => {
    const result = await runCheck(probeCheck(browser(`${base}/checkout`, { keyword: { value: 'Place order' }, waitUntil: 'networkidle' })));
    expect(result).toMatchObject({ status: 'up', message: '200 "Checkout"' });
  });

  it('is down on an unexpected status, a missing keyword or a refused connection', async () => {
    expect(await runCheck(probeCheck(browser(`${base}/gone`)))).toMatchObject({ status: 'down', message: 'expected status 200-299, got 404' });
    expect(await runCheck(probeCheck(browser(`${base}/checkout`, { keyword: { value: 'Sold out' } })))).toMatchObject({
      status: 'down',
      message: 'keyword "Sold out" not found in the rendered page',
    });
    const port = await freePort();
    expect(await runCheck(probeCheck(browser(`http://127.0.0.1:${port}/`)))).toMatchObject({
      status: 'down',
      message: 'the page did not load: net::ERR_CONNECTION_REFUSED',
    });
  });

  it('loads a page by name, at the address the egress policy allowed', async () => {
    const result = await runCheck(probeCheck(browser(`${base.replace('127.0.0.1', 'localhost')}/checkout`)));
    expect(result).toMatchObject({ status: 'up', message: '200 "Checkout"' });
  });

  it('refuses what the egress policy refuses, before starting a browser', async () => {
    const result = await runProbe(probeCheck(browser(`${base}/checkout`)), { egress: createEgressPolicy({ denyPrivate: true }) });
    expect(result.status).toBe('down');
    expect(result.message).toMatch(/^egress policy refuses 127\.0\.0\.1/);
  });

  describe('timeout', () => {
    let listener: SilentListener;
    beforeAll(async () => {
      listener = await startSilentListener();
    });
    afterAll(() => listener.close());

    it('ends at thresholds.timeoutMs against a server that never answers, and closes its connections', async () => {
      await expectTimeoutTearsDown(probeCheck(browser(`http://127.0.0.1:${listener.port}/`, {}, 3000)), listener);
    });
  });
});
