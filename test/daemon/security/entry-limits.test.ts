import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../daemon/clock.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { freePort } from '../../support/oauth/browser.js';
import { startTestProviders, type TestProviders } from '../../support/oauth/providers.js';

/** Registration and the start of an external sign-in are limited per client; expired authorizations are purged. */
describe.each(DATABASE_KINDS)('limits at the doors [%s]', (kind) => {
  let daemon: TestDaemon;
  let providers: TestProviders;
  let base: string;
  const clock = manualClock(new Date());

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    providers = await startTestProviders(base);
    daemon = await startTestDaemon(kind, {
      clock,
      env: {
        SVC_LISTEN: `127.0.0.1:${port}`,
        SVC_BASE_URL: base,
        SVC_AUTH_REGISTER_RATE_LIMIT: '4',
        SVC_AUTH_EXTERNAL_SIGN_IN_RATE_LIMIT: '3',
        ...providers.env,
      },
    });
  });
  afterAll(async () => {
    await daemon?.stop();
    await providers?.close();
  });

  it('POST /auth/register is limited per client, refused attempts (409 EMAIL_TAKEN) included', async () => {
    expect((await daemon.request('POST', '/auth/register', { body: { email: 'first@example.com', password: 'password-123' } })).status).toBe(201);
    expect((await daemon.request('POST', '/auth/register', { body: { email: 'first@example.com', password: 'password-123' } })).status).toBe(409);
    const burst = await Promise.all(
      Array.from({ length: 8 }, (_, i) => daemon.request('POST', '/auth/register', { body: { email: `burst-${i}@example.com`, password: 'password-123' } })),
    );
    expect(burst.filter((r) => r.status === 201)).toHaveLength(2);
    const refused = burst.filter((r) => r.status === 429);
    expect(refused).toHaveLength(6);
    expect(refused[0].body.error.code).toBe('RATE_LIMITED');
    expect(refused[0].headers.get('retry-after')).toMatch(/^\d+$/);
  });

  const start = () => fetch(`${daemon.url}/api/v1/auth/search_portal/login`, { redirect: 'manual' });

  it('the start of an external sign-in is limited per client, and expired authorizations are purged', async () => {
    const rows = () => daemon.deps.db.kysely.selectFrom('oauth_states').select('state_hash').execute();
    for (let i = 0; i < 3; i++) {
      const res = await start();
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/auth\?/);
    }
    expect(await rows()).toHaveLength(3);
    const refused = await start();
    expect(refused.headers.get('location')).toBe(`${base}/d/auth/complete?error=rate_limited`);
    expect(await rows()).toHaveLength(3);
    // Ten minutes on, the window reopens and the abandoned authorizations are gone.
    clock.advance(601_000);
    expect((await start()).headers.get('location')).toMatch(/\/auth\?/);
    expect(await rows()).toHaveLength(1);
  });
});
