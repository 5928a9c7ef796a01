import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { checkCount, checksSnapshot, convertPath } from './helpers.js';

// The daemon runs with SVC_NODE_ROLE=api (test/support/daemon.ts): example.com targets are stored, never probed.
const fixture = (name: string) => readFileSync(`test/fixtures/import/pingdom/${name}.json`, 'utf8');

describe.each(DATABASE_KINDS)('import from Pingdom [%s]', (kind) => {
  let daemon: TestDaemon;
  let admin: string;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind, { env: { SVC_CHECKS_PER_ORG_LIMIT: '0' } });
    admin = await daemon.adminToken();
  });
  afterAll(() => daemon.stop());

  const convert = (query: string, raw: string) => daemon.request('POST', convertPath(query), { token: admin, raw });

  it('previews the check details, then applies them the same way', async () => {
    const before = await checksSnapshot(daemon);
    const preview = await convert('source=pingdom&dryRun=true', fixture('details'));
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body).toMatchObject({ source: 'hosted-check-api', dryRun: true, created: 8, skipped: 0 });
    expect(await checksSnapshot(daemon), 'the dry run wrote nothing').toBe(before);

    const applied = await convert('source=hosted-check-api', fixture('details'));
    const { dryRun: _p, ...previewRest } = preview.body;
    const { dryRun: _a, ...appliedRest } = applied.body;
    expect(appliedRest).toEqual(previewRest);
    const shop = await daemon.request('GET', '/orgs/default/checks/shop-front-page', { token: admin });
    expect(shop.body).toMatchObject({
      type: 'http',
      target: 'https://www.example.com/health?full=1',
      intervalSeconds: 60,
      config: { expectedStatusCodes: ['200-399'], keyword: { value: 'All good', expect: 'present' }, certificateExpiryDays: 14 },
      thresholds: { timeoutMs: 5000, failuresBeforeDown: 2 },
      labels: { shop: '', 'svc-managed': 'hosted-check-api' },
    });
    const paused = await daemon.request('GET', '/orgs/default/checks/mailbox-pop3', { token: admin });
    expect(paused.body.enabled).toBe(false);
  });

  it('re-runs unchanged; the listing with details changes what it says differently, and skips transaction checks', async () => {
    const count = await checkCount(daemon);
    const again = await convert('source=pingdom', fixture('details'));
    expect(again.body).toMatchObject({ created: 0, updated: 0, unchanged: 8 });
    expect(await checkCount(daemon)).toBe(count);

    const listing = await convert('source=pingdom&dryRun=true', fixture('listing'));
    expect(listing.body).toMatchObject({ skipped: 2 });
    expect(listing.body.checks.find((c: { name: string }) => c.name === 'Checkout flow')).toMatchObject({ action: 'skip', reason: 'UNSUPPORTED_TYPE' });
    expect(listing.body.checks.find((c: { name: string }) => c.name === 'Router')).toMatchObject({ action: 'create', type: 'icmp' });
  });

  it('refuses what is not the API JSON with 400 INVALID_IMPORT_INPUT, writing nothing', async () => {
    const before = await checksSnapshot(daemon);
    for (const body of ['', '{"checks": 1', '{"monitors": []}', '{"error": {"statuscode": 403, "statusdesc": "Forbidden", "errormessage": "Invalid token"}}']) {
      const res = await convert('source=hosted-check-api', body);
      expect(res.status, body).toBe(400);
      expect(res.body.error.code).toBe('INVALID_IMPORT_INPUT');
      expect(res.body.error.details.expected).toContain('GET /checks');
    }
    expect(await checksSnapshot(daemon)).toBe(before);
  });
});
