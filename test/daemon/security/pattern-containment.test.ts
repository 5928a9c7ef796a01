import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../daemon/clock.js';
import type { Runner } from '../../../daemon/runner/runner.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { testRunner } from '../../support/runner.js';

// Exponential backtracking: (a+)+$ against many a's that end in "b" runs far longer than any test.
const CATASTROPHIC = '(a+)+$';
const BODY = JSON.stringify({ text: `${'a'.repeat(27)}b` });

/**
 * Runs `work` while asking GET /api/v1/health again and again: how many health answers came
 * before the work finished, and the slowest of them. On a held event loop none can come (the
 * daemon runs in this process), so the count proves the loop kept turning.
 */
async function healthDuring<T>(daemon: TestDaemon, work: () => Promise<T>): Promise<{ result: T; answered: number; slowestMs: number }> {
  let done = false;
  let answered = 0;
  let slowestMs = 0;
  const poll = (async () => {
    while (!done) {
      const started = performance.now();
      const response = await fetch(`${daemon.url}/api/v1/health`);
      await response.arrayBuffer();
      if (done) break;
      expect(response.status).toBe(200);
      answered++;
      slowestMs = Math.max(slowestMs, performance.now() - started);
      await sleep(10);
    }
  })();
  try {
    return { result: await work(), answered, slowestMs };
  } finally {
    done = true;
    await poll;
  }
}

describe.each(DATABASE_KINDS)('a catastrophic regular expression in a JSON query [%s]', (kind) => {
  const clock = manualClock(new Date('2026-03-01T10:00:00Z'));
  let daemon: TestDaemon;
  let admin: string;
  let runner: Runner;
  let target: Server;

  beforeAll(async () => {
    target = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(BODY));
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    daemon = await startTestDaemon(kind, { clock });
    admin = await daemon.adminToken();
    runner = testRunner(daemon, clock);
    const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/data`;
    for (const [name, expression] of [
      ['Match', `$count($match(text, /${CATASTROPHIC}/))`],
      ['Contains', `$contains(text, /${CATASTROPHIC}/)`],
    ]) {
      const created = await daemon.request('POST', '/orgs/default/checks', {
        token: admin,
        body: {
          name,
          type: 'http',
          target: url,
          intervalSeconds: 30,
          thresholds: { timeoutMs: 10_000 },
          config: { jsonQueries: [{ expression, expected: 'true' }] },
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
  });
  afterAll(async () => {
    await daemon?.stop();
    await new Promise<void>((resolve) => target.close(() => resolve()));
  });

  it('fails the scheduled run saying the query took too long, while /health keeps answering', async () => {
    const { answered, slowestMs } = await healthDuring(daemon, async () => {
      clock.advance(30_000);
      await runner.tick();
    });
    console.log(`[${kind}] scheduled runs: ${answered} health answers during them, slowest ${slowestMs.toFixed(0)} ms`);
    expect(answered).toBeGreaterThanOrEqual(10);
    expect(slowestMs).toBeLessThan(1000);
    for (const slug of ['match', 'contains']) {
      const check = await daemon.request('GET', `/orgs/default/checks/${slug}`, { token: admin });
      expect(check.body.lastResult).toMatchObject({
        status: 'down',
        message: expect.stringMatching(/^JSON query .* took too long \(over 1000 ms\) and was stopped/),
      });
    }
  });

  it('fails a run started now the same way, and the next run works on a fresh worker', async () => {
    const { result, answered, slowestMs } = await healthDuring(daemon, () => daemon.request('POST', '/orgs/default/checks/match/run', { token: admin }));
    console.log(`[${kind}] run now: ${answered} health answers during it, slowest ${slowestMs.toFixed(0)} ms`);
    expect(answered).toBeGreaterThanOrEqual(10);
    expect(result.body).toMatchObject({ status: 'down', message: expect.stringContaining('took too long') });
    const fine = await daemon.request('PATCH', '/orgs/default/checks/match', {
      token: admin,
      body: { config: { jsonQueries: [{ expression: '$length(text)', expected: '28' }] } },
    });
    expect(fine.status).toBe(200);
    expect((await daemon.request('POST', '/orgs/default/checks/match/run', { token: admin })).body).toMatchObject({ status: 'up' });
  });
});

describe.each(DATABASE_KINDS)('a catastrophic SVC_AUTH_REGISTRATION_EMAIL_PATTERN [%s]', (kind) => {
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind, { env: { SVC_AUTH_REGISTRATION_EMAIL_PATTERN: `^${CATASTROPHIC}|@open\\.test$` } });
  });
  afterAll(() => daemon?.stop());

  it('refuses the address whose matching runs out of time, while /health keeps answering', async () => {
    const { result, answered, slowestMs } = await healthDuring(daemon, () =>
      daemon.request('POST', '/auth/register', { body: { email: `${'a'.repeat(25)}@closed.test`, password: 'password-123' } }),
    );
    console.log(`[${kind}] registration: ${answered} health answers during it, slowest ${slowestMs.toFixed(0)} ms`);
    expect(result.status, JSON.stringify(result.body)).toBe(403);
    expect(result.body.error.message).toBe('Registration is not open to this e-mail address.');
    expect(answered).toBeGreaterThanOrEqual(3);
    expect(daemon.logs.some((line) => line.includes('SVC_AUTH_REGISTRATION_EMAIL_PATTERN could not be matched within 50 ms'))).toBe(true);
    // The pattern still admits the addresses it matches, and refuses the others.
    expect((await daemon.request('POST', '/auth/register', { body: { email: 'someone@open.test', password: 'password-123' } })).status).toBe(201);
    expect((await daemon.request('POST', '/auth/register', { body: { email: 'someone@other.test', password: 'password-123' } })).status).toBe(403);
  });
});
