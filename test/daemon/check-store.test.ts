import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleCheck, type CheckDefinition } from '../../checks/index.js';
import { createCheck, findChecksBySlugs, getCheck, listChecks, upsertChecks } from '../../daemon/checks/check-store.js';
import type { Db } from '../../daemon/db/connect.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';

const NOW = new Date('2026-04-01T12:00:00Z');

function fleet(count: number, labels: (i: number) => Record<string, string> = () => ({})): CheckDefinition[] {
  const base = sampleCheck('tcp')!;
  return Array.from({ length: count }, (_, i) => ({
    ...base,
    slug: `host-${String(i).padStart(5, '0')}`,
    name: `Host ${i}`,
    target: `h${i}.example.com:22`,
    labels: labels(i),
  }));
}

describe.each(DATABASE_KINDS)('check store [%s]', (kind) => {
  let daemon: TestDaemon;
  let db: Db;
  let orgUid: string;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
    db = daemon.deps.db;
    orgUid = (await db.kysely.selectFrom('organizations').select('uid').where('slug', '=', 'default').executeTakeFirstOrThrow()).uid;
  });
  afterAll(() => daemon.stop());

  it('upserts many checks by slug in one transaction: create, then unchanged, then update in place', async () => {
    const checks = fleet(1200, (i) => ({ rack: `r${i % 3}`, 'svc-managed': 'configfile-monitor' }));
    const preview = await upsertChecks(db.kysely, orgUid, checks, { now: NOW, dryRun: true });
    expect(preview.every((o) => o.action === 'create' && o.uid === undefined)).toBe(true);
    expect(await getCheck(db.kysely, orgUid, 'host-00000')).toBeUndefined();

    const created = await db.kysely.transaction().execute((trx) => upsertChecks(trx, orgUid, checks, { now: NOW }));
    expect(created.map((o) => o.action)).toEqual(checks.map(() => 'create'));
    // New checks list in input order.
    const firstPage = await listChecks(db.kysely, orgUid, { limit: 5 });
    expect(firstPage.items.map((c) => c.slug)).toEqual(['host-00000', 'host-00001', 'host-00002', 'host-00003', 'host-00004']);
    const rack1 = await listChecks(db.kysely, orgUid, { labels: [{ key: 'rack', value: 'r1' }], limit: 500 });
    expect(rack1.items).toHaveLength(400);

    const again = await upsertChecks(db.kysely, orgUid, checks, { now: NOW });
    expect(again.every((o) => o.action === 'unchanged')).toBe(true);
    expect(again.map((o) => o.uid)).toEqual(created.map((o) => o.uid));

    const later = new Date(NOW.getTime() + 60_000);
    const changed = checks.map((check, i) => (i % 2 === 0 ? { ...check, intervalSeconds: 120, labels: { rack: 'moved' } } : check));
    const outcome = await db.kysely.transaction().execute((trx) => upsertChecks(trx, orgUid, [...changed, ...fleet(1201).slice(1200)], { now: later }));
    expect(outcome.filter((o) => o.action === 'update')).toHaveLength(600);
    expect(outcome.filter((o) => o.action === 'unchanged')).toHaveLength(600);
    expect(outcome.at(-1)).toMatchObject({ slug: 'host-01200', action: 'create' });
    const updated = await getCheck(db.kysely, orgUid, 'host-00000');
    expect(updated).toMatchObject({
      uid: created[0].uid,
      intervalSeconds: 120,
      labels: { rack: 'moved' },
      createdAt: NOW.toISOString(),
      updatedAt: later.toISOString(),
    });
    expect((await listChecks(db.kysely, orgUid, { labels: [{ key: 'rack', value: 'moved' }], limit: 500 })).items).toHaveLength(500);
    expect((await listChecks(db.kysely, orgUid, { labels: [{ key: 'rack', value: 'r1' }], limit: 500 })).items).toHaveLength(200);
    expect(
      (
        await listChecks(db.kysely, orgUid, {
          labels: [
            { key: 'rack', value: 'r1' },
            { key: 'svc-managed', value: 'configfile-monitor' },
          ],
          limit: 500,
        })
      ).items,
    ).toHaveLength(200);

    const found = await findChecksBySlugs(db.kysely, orgUid, ['host-00001', 'host-00002', 'nope']);
    expect([...found.keys()].sort()).toEqual(['host-00001', 'host-00002']);
  });

  it('writes the label rows as the database copies them from each check: every label, its text exactly', async () => {
    // Quotes, backslashes, JSON escapes, non-ASCII and astral characters, and a check without labels,
    // across more checks than one statement copies on either database.
    const tricky = (i: number): Record<string, string> =>
      i % 7 === 0 ? {} : { 'zone "a"\\b': `v${i % 5} \u00e9\u6771\ud83d\ude80 "q" \\ /`, 'app.kubernetes.io/name': `n${i}`, tier: i % 2 ? 'web' : '' };
    const checks = fleet(2600, tricky).map((check) => ({ ...check, slug: `labelled-${check.slug}` }));
    await db.kysely.transaction().execute((trx) => upsertChecks(trx, orgUid, checks, { now: NOW }));
    const stored = await db.kysely
      .selectFrom('check_labels')
      .innerJoin('checks', 'checks.uid', 'check_labels.check_uid')
      .select(['checks.slug', 'check_labels.key', 'check_labels.value', 'check_labels.organization_uid'])
      .where('checks.slug', 'like', 'labelled-%')
      .execute();
    const rows = (list: { slug: string; key: string; value: string }[]) => list.map(({ slug, key, value }) => `${slug}\n${key}\n${value}`).sort();
    expect(rows(stored)).toEqual(rows(checks.flatMap((check) => Object.entries(check.labels).map(([key, value]) => ({ slug: check.slug, key, value })))));
    expect(new Set(stored.map((row) => row.organization_uid))).toEqual(new Set([orgUid]));
    const zone = tricky(1)['zone "a"\\b'];
    const found = await listChecks(db.kysely, orgUid, { labels: [{ key: 'zone "a"\\b', value: zone }], limit: 500 });
    expect(found.items.map((check) => check.slug)).toEqual(checks.filter((check) => check.labels['zone "a"\\b'] === zone).map((check) => check.slug));
  });

  it('rolls the whole batch back with its transaction, and refuses a slug given twice', async () => {
    const batch = fleet(3).map((check) => ({ ...check, slug: `rollback-${check.slug}` }));
    await expect(
      db.kysely.transaction().execute(async (trx) => {
        await upsertChecks(trx, orgUid, batch, { now: NOW });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(
      await findChecksBySlugs(
        db.kysely,
        orgUid,
        batch.map((c) => c.slug),
      ),
    ).toEqual(new Map());
    await expect(upsertChecks(db.kysely, orgUid, [batch[0], batch[0]], { now: NOW })).rejects.toThrow(/twice/);
  });

  it('treats a check created since the look-up as an update, never a duplicate', async () => {
    const [check] = fleet(1).map((c) => ({ ...c, slug: 'raced', labels: { a: '1' } }));
    const first = await createCheck(db.kysely, orgUid, check, NOW);
    const outcome = await upsertChecks(db.kysely, orgUid, [{ ...check, name: 'Raced again', labels: { b: '2' } }], { now: NOW });
    expect(outcome).toEqual([{ slug: 'raced', action: 'update', uid: first.uid }]);
    expect(await getCheck(db.kysely, orgUid, 'raced')).toMatchObject({ uid: first.uid, name: 'Raced again', labels: { b: '2' } });
    expect((await listChecks(db.kysely, orgUid, { labels: [{ key: 'a', value: '1' }], limit: 10 })).items).toEqual([]);
  });
});
