import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { startFakePingdomApi, type FakePingdomApi } from '../../support/fakes/pingdom-api-fake.js';
import { checksSnapshot, convertPath } from './helpers.js';

// The hosted-check-api import given an API token: the daemon reads GET /api/3.1/checks and each
// GET /api/3.1/checks/{checkid} of the Pingdom API 3.1 (https://docs.pingdom.com/api/) with
// Authorization: Bearer, at SVC_IMPORT_HOSTED_CHECK_API_URL, here the protocol-level fake on 127.0.0.1.

const GOOD = 'pd_good_0123456789abcdef';
const REFUSED = 'pd_refused_0123456789abcdef';

const tokenless = (value: unknown) => expect(JSON.stringify(value)).not.toMatch(/pd_(good|refused)_/);

describe.each(DATABASE_KINDS)('import from the hosted check API with a token [%s]', (kind) => {
  let api: FakePingdomApi;
  let daemon: TestDaemon;
  let admin: string;
  beforeAll(async () => {
    api = await startFakePingdomApi({ [GOOD]: 'account' });
    daemon = await startTestDaemon(kind, { env: { SVC_IMPORT_HOSTED_CHECK_API_URL: api.url } });
    admin = await daemon.adminToken();
  });
  afterAll(async () => {
    await daemon.stop();
    await api.close();
  });

  const convert = (query: string, raw: string) => daemon.request('POST', convertPath(query), { token: admin, raw });

  it('fetches the checks and their details with the token, previews, then applies the same', async () => {
    const before = await checksSnapshot(daemon);
    const preview = await convert('source=pingdom&dryRun=true', `${GOOD}\n`);
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body).toMatchObject({ source: 'hosted-check-api', dryRun: true, created: 4, skipped: 1 });
    expect(await checksSnapshot(daemon)).toBe(before);
    expect(api.requests.at(-1)?.headers.authorization).toBe(`Bearer ${GOOD}`);

    const applied = await convert('source=hosted-check-api', GOOD);
    expect(applied.body).toMatchObject({ dryRun: false, created: 4, updated: 0, skipped: 1 });
    // The detail's path and query made it into the target.
    const shop = await daemon.request('GET', '/orgs/default/checks/shop-front-page', { token: admin });
    expect(shop.body.target).toBe('https://www.example.com/health?full=1');
    const again = await convert('source=hosted-check-api', GOOD);
    expect(again.body).toMatchObject({ created: 0, updated: 0, unchanged: 4 });
    tokenless([preview.body, applied.body, again.body, shop.body, await checksSnapshot(daemon)]);
  });

  it('answers 502 UPSTREAM_FAILED saying the token was refused, and writes nothing', async () => {
    const before = await checksSnapshot(daemon);
    const res = await convert('source=hosted-check-api', REFUSED);
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('UPSTREAM_FAILED');
    expect(res.body.error.message).toMatch(/^The hosted check API at http:\/\/127\.0\.0\.1:\d+ refused the token \(HTTP 401\)/);
    expect(res.body.error.details).toMatchObject({ reason: 'token-refused', upstreamStatus: 401 });
    tokenless(res.body);
    expect(await checksSnapshot(daemon)).toBe(before);
  });

  it('never logs the token', () => {
    expect(daemon.logs.length).toBeGreaterThan(0);
    tokenless(daemon.logs);
  });
});
