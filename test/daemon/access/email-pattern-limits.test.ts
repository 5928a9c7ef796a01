import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { createOrg } from './helpers.js';

const HOSTILE_ORGS = 16;
// Exponential backtracking on an address of many a's that then fails at "@": each would run for
// far longer than any test, so every one of them must be cut off.
const hostilePattern = (i: number) => `^(a+)+$|^never-${i}$`;
const victimAddress = (n: number) => `${'a'.repeat(40)}${n}@hostile.test`;

/**
 * Watches this process's event loop (the daemon runs in it): the largest delay seen from now
 * until stop(), in ms. Samples start before the work and go on after it, so a block at either
 * end is caught too.
 */
async function watchEventLoop(): Promise<{ stop(): Promise<number> }> {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  await sleep(50);
  histogram.reset();
  return {
    async stop() {
      await sleep(50);
      histogram.disable();
      return histogram.max / 1e6;
    },
  };
}

describe.each(DATABASE_KINDS)('registration.email_pattern bounds [%s]', (kind) => {
  let daemon: TestDaemon;
  let admin: string;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind, { env: { SVC_ORGS_PER_USER_LIMIT: '2' } });
    admin = await daemon.adminToken();
    for (let i = 0; i < HOSTILE_ORGS; i++) {
      await createOrg(daemon, admin, `hostile-${i}`);
      const set = await daemon.request('PATCH', `/orgs/hostile-${i}`, { token: admin, body: { registrationEmailPattern: hostilePattern(i) } });
      expect(set.status, JSON.stringify(set.body)).toBe(200);
    }
    await createOrg(daemon, admin, 'fair-co');
    await daemon.request('PATCH', '/orgs/fair-co', { token: admin, body: { registrationEmailPattern: '@hostile\\.test$' } });
  });
  afterAll(() => daemon.stop());

  it('matches hostile patterns off the event loop, within a bounded total per registration', async () => {
    const delay = await watchEventLoop();
    const started = performance.now();
    const res = await daemon.request('POST', '/auth/register', { body: { email: victimAddress(1), password: 'password-123' } });
    const elapsed = performance.now() - started;
    const maxDelayMs = await delay.stop();
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // Matched on the event loop, 16 patterns at even 50 ms each would hold it for 800 ms at once.
    expect(maxDelayMs, `event-loop delay max ${maxDelayMs.toFixed(1)} ms`).toBeLessThan(300);
    // The matching gets 500 ms in all; the rest is one sign-up's ordinary work.
    expect(elapsed, `registration took ${elapsed.toFixed(0)} ms`).toBeLessThan(2000);
    expect(daemon.logs.some((line) => line.includes('hostile-') && /took longer than 50 ms|was not tried/.test(line))).toBe(true);
  });

  it('tries patterns that were slow lately last, so an ordinary pattern is not starved by hostile ones', async () => {
    // The first sign-up met the hostile patterns (as many as 500 ms allowed); each later one tries
    // those it has not met yet and the ordinary one before them, so within a few sign-ups every
    // hostile pattern is known and the ordinary one is tried first.
    const joined: string[][] = [];
    for (let n = 2; n <= 4; n++) {
      const res = await daemon.request('POST', '/auth/register', { body: { email: victimAddress(n), password: 'password-123' } });
      expect(res.status).toBe(201);
      joined.push(res.body.user.organizations.map((o: { slug: string }) => o.slug));
    }
    expect(joined.at(-1)).toEqual(['fair-co']);
  });

  it('caps the organizations one account may own (SVC_ORGS_PER_USER_LIMIT); a super admin is not capped', async () => {
    const { token } = await daemon.register('founder@cap.test');
    await createOrg(daemon, token, 'cap-1');
    await createOrg(daemon, token, 'cap-2');
    const third = await daemon.request('POST', '/orgs', { token, body: { slug: 'cap-3', name: 'Cap 3' } });
    expect(third.status, JSON.stringify(third.body)).toBe(409);
    expect(third.body.error.details.reason).toBe('ORGANIZATION_LIMIT_REACHED');
    expect(third.body.error.message).toContain('at most 2');
    expect(await daemon.deps.db.kysely.selectFrom('organizations').select('uid').where('slug', '=', 'cap-3').executeTakeFirst()).toBeUndefined();
    // Parallel attempts cannot slip past the count either.
    const parallel = await Promise.all([4, 5, 6].map((n) => daemon.request('POST', '/orgs', { token, body: { slug: `cap-${n}`, name: 'Cap' } })));
    expect(parallel.map((r) => r.status)).toEqual([409, 409, 409]);
    // The super admin above already owns far more than 2.
    expect(HOSTILE_ORGS).toBeGreaterThan(2);
  });
});

describe.each(DATABASE_KINDS)('registration.email_pattern without SMTP [%s]', (kind) => {
  const warning = (logs: string[]) => logs.filter((line) => line.includes('SMTP is not configured') && line.includes('registration.email_pattern'));

  it('warns at start-up that pattern joins go unverified when some organization has a pattern', async () => {
    const first = await startTestDaemon(kind);
    let restarted: TestDaemon | undefined;
    try {
      expect(warning(first.logs)).toEqual([]);
      const owner = await first.register('founder@warn.test');
      await createOrg(first, owner.token, 'warn-co');
      await first.request('PATCH', '/orgs/warn-co', { token: owner.token, body: { registrationEmailPattern: '@warn\\.test$' } });
      await first.close();
      restarted = await startTestDaemon(kind, { database: first.database });
      const lines = warning(restarted.logs);
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0])).toMatchObject({ level: 40, orgs: ['warn-co'] });
    } finally {
      if (restarted) await restarted.stop();
      else await first.stop();
    }
  });
});
