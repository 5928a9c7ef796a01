import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../daemon/clock.js';
import { browserSkipReason } from '../../support/browser.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { startSilentListener, type SilentListener } from '../../support/probe-runs.js';
import { testRunner } from '../../support/runner.js';

const skip = browserSkipReason();

/**
 * A target whose pages /a and /b each wait for the other to be asked for (up to 1.5 s) before
 * they answer, and which logs when each is asked for and answered. Two browsers loading them at
 * once make the log `asked a, asked b, answered …`; one after the other, each page is answered
 * before the next is asked for.
 */
async function startRendezvous(): Promise<{ url: string; log: string[]; server: Server }> {
  const log: string[] = [];
  const held: Array<() => void> = [];
  const server = createServer((req, res) => {
    const page = req.url?.slice(1) ?? '';
    if (page !== 'a' && page !== 'b') return res.writeHead(404).end();
    log.push(`asked ${page}`);
    const answer = () => {
      if (res.headersSent) return;
      log.push(`answered ${page}`);
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>page ${page}</title>`);
    };
    held.push(answer);
    if (held.length >= 2) for (const release of held.splice(0)) release();
    else
      setTimeout(() => {
        held.splice(held.indexOf(answer), 1);
        answer();
      }, 1500);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, log, server };
}

const browserCheck = (name: string, target: string, timeoutMs = 15_000) => ({ name, type: 'browser', target, thresholds: { timeoutMs } });

describe.skipIf(skip).each(DATABASE_KINDS)('SVC_RUNNER_BROWSER_CONCURRENCY bounds browser runs in one daemon [%s]', (kind) => {
  const clock = manualClock(new Date('2026-03-01T10:00:00Z'));
  let daemon: TestDaemon;
  let admin: string;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind, { clock, env: { SVC_RUNNER_BROWSER_CONCURRENCY: '1' } });
    admin = await daemon.adminToken();
  });
  afterAll(() => daemon.stop());

  const test = (body: unknown) => daemon.request('POST', '/orgs/default/checks/test', { token: admin, body });

  it('with the limit at 1, two browser checks started together never overlap', async () => {
    const target = await startRendezvous();
    try {
      const [a, b] = await Promise.all([test(browserCheck('Page A', `${target.url}/a`)), test(browserCheck('Page B', `${target.url}/b`))]);
      expect(a.body).toMatchObject({ status: 'up', message: '200 "page a"' });
      expect(b.body).toMatchObject({ status: 'up', message: '200 "page b"' });
      // Whichever ran first was answered before the other was asked for.
      const [first] = target.log[0].split(' ').slice(1);
      const second = first === 'a' ? 'b' : 'a';
      expect(target.log).toEqual([`asked ${first}`, `answered ${first}`, `asked ${second}`, `answered ${second}`]);
    } finally {
      await new Promise<void>((resolve) => target.server.close(() => resolve()));
    }
  });

  it('the scheduled runs of two browser checks due together do not overlap either', async () => {
    const target = await startRendezvous();
    try {
      for (const page of ['a', 'b']) {
        const created = await daemon.request('POST', '/orgs/default/checks', {
          token: admin,
          body: { ...browserCheck(`Page ${page}`, `${target.url}/${page}`), intervalSeconds: 60 },
        });
        expect(created.status).toBe(201);
      }
      clock.advance(120_000);
      await testRunner(daemon, clock).tick();
      const results = await Promise.all(
        ['page-a', 'page-b'].map(async (slug) => (await daemon.request('GET', `/orgs/default/checks/${slug}`, { token: admin })).body.lastResult),
      );
      expect(results).toMatchObject([{ status: 'up' }, { status: 'up' }]);
      const [first] = target.log[0].split(' ').slice(1);
      const second = first === 'a' ? 'b' : 'a';
      expect(target.log).toEqual([`asked ${first}`, `answered ${first}`, `asked ${second}`, `answered ${second}`]);
    } finally {
      await new Promise<void>((resolve) => target.server.close(() => resolve()));
    }
  });

  it('a browser check that waits for a slot past its timeout is down saying so, and never reaches its target', async () => {
    const silent: SilentListener = await startSilentListener();
    const target = await startRendezvous();
    try {
      const holder = test(browserCheck('Slow page', `http://127.0.0.1:${silent.port}/`, 6000));
      await expect.poll(() => silent.accepted, { timeout: 5000 }).toBeGreaterThan(0);
      const waiter = await test(browserCheck('Waiting page', `${target.url}/a`, 1000));
      expect(waiter.body).toMatchObject({ status: 'down', message: 'timeout after 1000 ms waiting for a browser slot (limit 1 at once)' });
      expect((await holder).body).toMatchObject({ status: 'down', message: 'timeout after 6000 ms' });
      expect(target.log).toEqual([]);
    } finally {
      await silent.close();
      await new Promise<void>((resolve) => target.server.close(() => resolve()));
    }
  });
});
