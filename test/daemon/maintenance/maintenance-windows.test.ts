import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../daemon/clock.js';
import { statesOf } from '../../../daemon/runner/check-runtime.js';
import { writeRecords } from '../../../daemon/runner/result-writer.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestDaemon, type TestDaemon } from '../../support/daemon.js';

// The maintenance window resource, and a weekly window across the change to and from summer time
// in Europe/Berlin judged by the result writer: Sunday 02:00 local stays 02:00 local, so its UTC
// instant moves by an hour (01:00Z in winter, 00:00Z in summer).

describe.each(DATABASE_KINDS)('maintenance windows [%s]', (kind) => {
  const clock = manualClock(new Date('2026-03-20T12:00:00Z'));
  let daemon: TestDaemon;
  let admin: string;

  beforeAll(async () => {
    daemon = await startTestDaemon(kind, { clock });
    admin = await daemon.adminToken();
    for (const name of ['Api', 'Web'])
      expect((await daemon.request('POST', '/orgs/default/checks', { token: admin, body: { name, type: 'http', target: 'https://example.com' } })).status).toBe(
        201,
      );
  });
  afterAll(() => daemon.stop());

  const post = (body: unknown) => daemon.request('POST', '/orgs/default/maintenance-windows', { token: admin, body });

  it('creates, lists, reads, changes and deletes a window', async () => {
    const created = await post({
      title: 'Upgrade',
      description: 'Postgres 18',
      startsAt: '2026-03-21T22:00:00+01:00',
      endsAt: '2026-03-21T23:30:00+01:00',
      checks: ['api'],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      title: 'Upgrade',
      startsAt: '2026-03-21T21:00:00.000Z',
      endsAt: '2026-03-21T22:30:00.000Z',
      recurrence: null,
      timezone: 'UTC',
      checks: ['api'],
      labels: {},
      allChecks: false,
      active: false,
      occurrence: { startsAt: '2026-03-21T21:00:00.000Z', endsAt: '2026-03-21T22:30:00.000Z' },
    });
    const uid = created.body.uid;
    expect((await daemon.request('GET', `/orgs/default/maintenance-windows/${uid}`, { token: admin })).body.title).toBe('Upgrade');
    const patched = await daemon.request('PATCH', `/orgs/default/maintenance-windows/${uid}`, {
      token: admin,
      body: { checks: ['api', 'web'], title: 'Upgrade 2' },
    });
    expect(patched.body).toMatchObject({ title: 'Upgrade 2', checks: ['api', 'web'], description: 'Postgres 18' });
    expect((await daemon.request('GET', '/orgs/default/maintenance-windows?check=web', { token: admin })).body.items).toHaveLength(1);
    expect((await daemon.request('DELETE', `/orgs/default/maintenance-windows/${uid}`, { token: admin })).status).toBe(204);
    expect((await daemon.request('GET', `/orgs/default/maintenance-windows/${uid}`, { token: admin })).status).toBe(404);
  });

  it('refuses a bad window with every problem named, and writes nothing', async () => {
    const bad = await post({ title: 'x', startsAt: '2026-03-21T22:00:00Z', endsAt: '2026-03-21T21:00:00Z', timezone: 'Mars/Olympus', checks: ['nope'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.issues.map((d: { path: string }) => d.path)).toEqual(expect.arrayContaining(['timezone', 'endsAt']));
    const rule = await post({ title: 'x', startsAt: '2026-03-21T22:00:00Z', endsAt: '2026-03-21T23:00:00Z', recurrence: 'FREQ=WEEKLY;BYDAY=XX' });
    expect(rule.status).toBe(400);
    expect(rule.body.error.details.issues[0]).toMatchObject({ path: 'recurrence' });
    const unknown = await post({ title: 'x', startsAt: '2026-03-21T22:00:00Z', endsAt: '2026-03-21T23:00:00Z', checks: ['nope'] });
    expect(unknown.body.error.details.issues).toEqual([{ path: 'checks.0', message: 'no check with slug "nope" in this organization' }]);
    const time = await post({ title: 'x', startsAt: 'tomorrow', endsAt: '2026-03-21T23:00:00Z' });
    expect(time.status).toBe(400);
    expect((await daemon.request('GET', '/orgs/default/maintenance-windows', { token: admin })).body.items).toEqual([]);
  });

  it('repeats at 02:00 Berlin time across the change to summer time and back', async () => {
    const created = await post({
      title: 'Sunday backups',
      startsAt: '2026-03-22T02:00:00+01:00',
      endsAt: '2026-03-22T03:00:00+01:00',
      recurrence: 'FREQ=WEEKLY;BYDAY=SU;BYHOUR=2',
      timezone: 'Europe/Berlin',
      checks: ['api'],
    });
    expect(created.status).toBe(201);
    // 2026-03-20 12:00Z: the next is Sunday 22 March, 02:00 CET = 01:00Z.
    expect(created.body.occurrence).toEqual({ startsAt: '2026-03-22T01:00:00.000Z', endsAt: '2026-03-22T02:00:00.000Z' });
    // On 29 March 02:00 does not exist in Berlin (the clocks go from 02:00 to 03:00): RFC 5545
    // 3.3.10 skips such an occurrence. The next is 5 April, 02:00 CEST = 00:00Z.
    // Signing in again as the clock moves on: a session lasts less than months.
    const occurrenceAt = async (iso: string) => {
      clock.set(new Date(iso));
      const token = await daemon.login(ADMIN_EMAIL, ADMIN_PASSWORD);
      return (await daemon.request('GET', `/orgs/default/maintenance-windows/${created.body.uid}`, { token })).body.occurrence;
    };
    expect(await occurrenceAt('2026-03-23T00:00:00Z')).toEqual({ startsAt: '2026-04-05T00:00:00.000Z', endsAt: '2026-04-05T01:00:00.000Z' });
    // Back to winter time on 25 October: the 25th is still CEST (00:00Z), 1 November is CET (01:00Z).
    expect((await occurrenceAt('2026-10-20T00:00:00Z')).startsAt).toBe('2026-10-25T00:00:00.000Z');
    expect((await occurrenceAt('2026-10-26T00:00:00Z')).startsAt).toBe('2026-11-01T01:00:00.000Z');
    clock.set(new Date('2026-11-20T00:00:00Z'));
    admin = await daemon.login(ADMIN_EMAIL, ADMIN_PASSWORD);

    // The result writer judges each result by the local time: 5 April 00:30Z is 02:30 CEST (in);
    // 01:30Z is 03:30 CEST (out, though it would be in had the UTC time held); 1 November 00:30Z is
    // 01:30 CET (out), 01:30Z is 02:30 CET (in).
    const db = daemon.deps.db;
    const row = await db.kysely.selectFrom('checks').select(['uid', 'organization_uid']).where('slug', '=', 'api').executeTakeFirstOrThrow();
    const series = Number((await statesOf(db.kysely, [row.uid], Date.now())).get(row.uid)!.series);
    const check = {
      uid: row.uid,
      organizationUid: row.organization_uid,
      slug: 'api',
      name: 'Api',
      thresholds: { failuresBeforeDown: 1, successesBeforeUp: 1 },
    };
    const stateAt = async (iso: string) => {
      await writeRecords(db, [{ series, check, at: Date.parse(iso), result: { status: 'up', latencyMs: 5, message: 'ok' } }]);
      return (await db.kysely.selectFrom('check_states').select('state').where('series', '=', series).executeTakeFirstOrThrow()).state;
    };
    expect(await stateAt('2026-03-22T01:30:00Z')).toBe('maintenance');
    expect(await stateAt('2026-03-22T02:30:00Z')).toBe('up');
    expect(await stateAt('2026-03-29T01:30:00Z')).toBe('up');
    expect(await stateAt('2026-04-05T00:30:00Z')).toBe('maintenance');
    expect(await stateAt('2026-04-05T01:30:00Z')).toBe('up');
    expect(await stateAt('2026-11-01T00:30:00Z')).toBe('up');
    expect(await stateAt('2026-11-01T01:30:00Z')).toBe('maintenance');
    // The other check is not covered.
    const other = await db.kysely.selectFrom('checks').select('uid').where('slug', '=', 'web').executeTakeFirstOrThrow();
    const otherSeries = Number((await statesOf(db.kysely, [other.uid], Date.now())).get(other.uid)!.series);
    await writeRecords(db, [
      {
        series: otherSeries,
        check: { ...check, uid: other.uid, slug: 'web' },
        at: Date.parse('2026-11-01T01:40:00Z'),
        result: { status: 'up', latencyMs: 5, message: 'ok' },
      },
    ]);
    expect((await db.kysely.selectFrom('check_states').select('state').where('series', '=', otherSeries).executeTakeFirstOrThrow()).state).toBe('up');
  });

  it('lists a window of all checks for any check, and refuses a member without write access', async () => {
    const all = await post({ title: 'Everything', startsAt: '2026-12-01T00:00:00Z', endsAt: '2026-12-02T00:00:00Z', allChecks: true });
    expect(all.status).toBe(201);
    const listed = await daemon.request('GET', '/orgs/default/maintenance-windows?check=web&upcoming=true', { token: admin });
    expect(listed.body.items.map((w: { title: string }) => w.title)).toEqual(['Everything']);
    const viewer = await daemon.register('viewer@example.com');
    expect((await daemon.request('POST', '/orgs/default/maintenance-windows', { token: viewer.token, body: { title: 'x' } })).status).toBe(404);
  });
});
