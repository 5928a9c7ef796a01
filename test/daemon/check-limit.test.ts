import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { sampleCheck } from '../../checks/index.js';
import { countChecks } from '../../daemon/checks/check-limit.js';
import { createCheck } from '../../daemon/checks/check-store.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';
import { checksSnapshot, convertPath, gatusConfig } from './import/helpers.js';

// gatusConfig() converts to two checks (the third endpoint has no equivalent).
describe.each(DATABASE_KINDS)('checks per organization (SVC_CHECKS_PER_ORG_LIMIT) [%s]', (kind) => {
  let daemon: TestDaemon;
  let admin: string;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind, { env: { SVC_CHECKS_PER_ORG_LIMIT: '3' } });
    admin = await daemon.adminToken();
    expect((await daemon.request('POST', '/orgs', { token: admin, body: { slug: 'other', name: 'Other' } })).status).toBe(201);
  });
  afterAll(() => daemon?.stop());

  const create = (slug: string, org = 'default') =>
    daemon.request('POST', `/orgs/${org}/checks`, { token: admin, body: { slug, name: slug, type: 'tcp', target: `${slug}.example.com:22` } });
  const importGatus = (query: string) => daemon.request('POST', convertPath(`source=gatus${query}`), { token: admin, raw: gatusConfig() });

  it('refuses a create beyond the limit with 409 CHECK_LIMIT_REACHED, per organization, and shows the limit', async () => {
    for (const slug of ['a', 'b', 'c']) expect((await create(slug)).status).toBe(201);
    const refused = await create('d');
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'CONFLICT', details: { reason: 'CHECK_LIMIT_REACHED' } });
    expect(refused.body.error.message).toContain('at most 3 checks');
    expect((await daemon.request('GET', '/orgs/default/checks/d', { token: admin })).status).toBe(404);
    expect((await create('d', 'other')).status).toBe(201);
    expect((await daemon.request('GET', '/orgs/default', { token: admin })).body.checkLimit).toBe(3);
  });

  it('refuses an import (and its preview) that would go beyond it, writing nothing', async () => {
    expect((await daemon.request('DELETE', '/orgs/default/checks/c', { token: admin })).status).toBe(204);
    const before = await checksSnapshot(daemon);
    for (const query of ['&dryRun=true', '']) {
      const refused = await importGatus(query);
      expect(refused.status, JSON.stringify(refused.body)).toBe(409);
      expect(refused.body.error.details.reason).toBe('CHECK_LIMIT_REACHED');
    }
    expect(await checksSnapshot(daemon)).toBe(before);
    // Room for both: the import goes through, and re-running it (nothing new) still does.
    expect((await daemon.request('DELETE', '/orgs/default/checks/b', { token: admin })).status).toBe(204);
    expect((await importGatus('')).body).toMatchObject({ created: 2 });
    expect((await importGatus('')).body).toMatchObject({ created: 0, unchanged: 2 });
  });
});

// Two transactions adding checks at once must count one after the other (daemon/checks/check-limit.ts):
// under read committed, both would count the same rows and both pass the limit.
describe.each(DATABASE_KINDS)('the check limit under concurrent transactions [%s]', (kind) => {
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
  });
  afterAll(() => daemon?.stop());

  it('lets a second create wait for the first, then refuses it when the first took the last place', async () => {
    const db = daemon.deps.db;
    const orgUid = (await db.kysely.selectFrom('organizations').select('uid').where('slug', '=', 'default').executeTakeFirstOrThrow()).uid;
    const tcp = (slug: string) => ({ ...sampleCheck('tcp')!, slug, name: slug });
    const limit = (await countChecks(db.kysely, orgUid)) + 1;
    let second: Promise<unknown> | undefined;
    await db.kysely.transaction().execute(async (trx) => {
      expect(await countChecks(trx, orgUid)).toBe(limit - 1);
      second = createCheck(db.kysely, orgUid, tcp('second'), new Date(), limit).catch((error: unknown) => error);
      if (kind === 'postgres') await waitForLockWait(db);
      await createCheck(trx, orgUid, tcp('first'), new Date(), limit);
    });
    expect(await second).toMatchObject({ details: { reason: 'CHECK_LIMIT_REACHED' } });
    expect(await countChecks(db.kysely, orgUid)).toBe(limit);
  });
});

/** Resolves once a PostgreSQL session waits for a lock (the second transaction behind the first). */
async function waitForLockWait(db: TestDaemon['deps']['db']): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const { rows } = await sql<{ n: string }>`select count(*) as n from pg_locks where not granted`.execute(db.kysely);
    if (Number(rows[0].n) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the second transaction never waited for the first');
}
