import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { checksSnapshot, convertPath } from './helpers.js';

/** A configuration-file export with one endpoint, `Website`. */
const gatus = (url = 'https://www.example.com') => `endpoints:\n  - name: Website\n    url: ${url}\n    conditions: ["[STATUS] == 200"]\n`;

/** A monitors listing with `Website` (and more), as the uptime API answers getMonitors. */
const uptime = (count = 1) =>
  JSON.stringify({
    stat: 'ok',
    monitors: Array.from({ length: count }, (_, i) => ({
      id: 1000 + i,
      friendly_name: i === 0 ? 'Website' : `Site ${i}`,
      url: i === 0 ? 'https://www.example.com/from-uptime' : `https://site${i}.example.com`,
      type: 1,
      interval: 300,
    })),
  });

describe.each(DATABASE_KINDS)('import ownership, digests and concurrency [%s]', (kind) => {
  let daemon: TestDaemon;
  let admin: string;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
    admin = await daemon.adminToken();
  });
  afterAll(() => daemon.stop());

  const convert = (query: string, raw: string, on: TestDaemon = daemon) => on.request('POST', convertPath(query), { token: admin, raw });
  const website = async () => (await daemon.request('GET', '/orgs/default/checks/website', { token: admin })).body;

  it('leaves a check managed by another source alone: conflict with a warning naming the owner, until taken over', async () => {
    expect((await convert('source=gatus', gatus())).body).toMatchObject({ created: 1 });
    const before = await checksSnapshot(daemon);

    const preview = await convert('source=uptimerobot&dryRun=true', uptime());
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body).toMatchObject({ created: 0, updated: 0, unchanged: 0, conflicts: 1 });
    expect(preview.body.checks[0]).toEqual({ slug: 'website', name: 'Website', type: 'http', action: 'conflict' });
    const warning = preview.body.warnings.find((w: { code: string }) => w.code === 'OWNED_ELSEWHERE');
    expect(warning).toMatchObject({ item: 'Website', slug: 'website', field: 'svc-managed' });
    expect(warning.message).toMatch(/managed by the configfile-monitor import/);
    expect(warning.message).toMatch(/--take-over/);

    // Re-running either import does not flip the check back and forth.
    for (let i = 0; i < 2; i++) {
      expect((await convert('source=uptimerobot', uptime())).body).toMatchObject({ conflicts: 1, updated: 0 });
      expect((await convert('source=gatus', gatus())).body).toMatchObject({ unchanged: 1, updated: 0 });
    }
    expect(await checksSnapshot(daemon)).toBe(before);

    const taken = await convert('source=uptimerobot&takeOver=true', uptime());
    expect(taken.body).toMatchObject({ updated: 1, conflicts: 0 });
    expect(await website()).toMatchObject({ target: 'https://www.example.com/from-uptime', labels: { 'svc-managed': 'uptime-api-monitor' } });
    // Now the first source is the one in conflict.
    expect((await convert('source=gatus&dryRun=true', gatus())).body).toMatchObject({ conflicts: 1 });
  });

  it('does not take a check made by hand without take-over', async () => {
    const made = await daemon.request('POST', '/orgs/default/checks', {
      token: admin,
      body: { name: 'Handmade', type: 'http', target: 'https://hand.example.com' },
    });
    expect(made.status).toBe(201);
    const yaml = 'endpoints:\n  - name: Handmade\n    url: https://hand.example.com/v2\n    conditions: ["[STATUS] == 200"]\n';
    const res = await convert('source=configfile-monitor', yaml);
    expect(res.body).toMatchObject({ created: 0, updated: 0, conflicts: 1 });
    expect(res.body.warnings.find((w: { code: string }) => w.code === 'OWNED_ELSEWHERE').message).toMatch(/was created by hand/);
    expect((await daemon.request('GET', '/orgs/default/checks/handmade', { token: admin })).body.target).toBe('https://hand.example.com');
    const taken = await convert('source=configfile-monitor&takeOver=1', yaml);
    expect(taken.body).toMatchObject({ updated: 1 });
    const after = await daemon.request('GET', '/orgs/default/checks/handmade', { token: admin });
    expect(after.body).toMatchObject({
      target: 'https://hand.example.com/v2',
      labels: { 'svc-managed': 'configfile-monitor' },
      createdAt: made.body.createdAt,
    });
  });

  it('applies with the preview digest only when the result is still what the preview showed', async () => {
    const yaml = 'endpoints:\n  - name: Digest one\n    url: https://d1.example.com\n    conditions: ["[STATUS] == 200"]\n';
    const preview = await convert('source=gatus&dryRun=true', yaml);
    expect(preview.body.digest).toMatch(/^[0-9a-f]{64}$/);
    const again = await convert('source=gatus&dryRun=true', yaml);
    expect(again.body.digest, 'the same preview has the same digest').toBe(preview.body.digest);

    // Someone creates the check by hand in between: the confirmed apply would differ.
    await daemon.request('POST', '/orgs/default/checks', { token: admin, body: { name: 'Digest one', type: 'http', target: 'https://other.example.com' } });
    const before = await checksSnapshot(daemon);
    const stale = await convert(`source=gatus&expect=${preview.body.digest}`, yaml);
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({ code: 'CONFLICT', details: { reason: 'IMPORT_CHANGED' } });
    expect(await checksSnapshot(daemon)).toBe(before);

    const yaml2 = 'endpoints:\n  - name: Digest two\n    url: https://d2.example.com\n    conditions: ["[STATUS] == 200"]\n';
    const fresh = await convert('source=gatus&dryRun=true', yaml2);
    const applied = await convert(`source=gatus&expect=${fresh.body.digest}`, yaml2);
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body).toMatchObject({ dryRun: false, created: 1, digest: fresh.body.digest });

    const bad = await convert('source=gatus&expect=abc', yaml2);
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.issues[0].path).toBe('expect');
  });

  it('reports true counts for identical imports at once on two daemons of one database', async () => {
    const replica = await startTestDaemon(kind, { database: daemon.database });
    try {
      const body = uptime(300).replace('"Website"', '"Concurrent first"');
      const answers = await Promise.all([convert('source=uptimerobot', body), convert('source=uptimerobot', body, replica)]);
      for (const answer of answers) expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(200);
      const created = answers.map((a) => a.body.created);
      const unchanged = answers.map((a) => a.body.unchanged);
      expect(created[0] + created[1], `created ${created.join(' and ')}`).toBe(300);
      expect(unchanged[0] + unchanged[1]).toBe(300);
    } finally {
      await replica.close();
    }
  });

  it('/auth/me names the organization of a personal access token (the import goes there), and nothing for a session', async () => {
    await daemon.request('POST', '/orgs', { token: admin, body: { slug: 'elsewhere', name: 'Elsewhere' } });
    const minted = await daemon.request('POST', '/auth/tokens', { token: admin, body: { name: 'importer', org: 'elsewhere' } });
    expect(minted.status).toBe(201);
    const viaToken = await daemon.request('GET', '/auth/me', { token: minted.body.token });
    expect(viaToken.body.tokenOrganization).toBe('elsewhere');
    expect((await daemon.request('GET', '/auth/me', { token: admin })).body).not.toHaveProperty('tokenOrganization');
  });
});
