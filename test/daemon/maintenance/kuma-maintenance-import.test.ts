import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../daemon/clock.js';
import { buildFixtureDatabase } from '../../fixtures/import/uptime-kuma/build-database.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { convertPath } from '../import/helpers.js';

// The maintenance entries of an Uptime Kuma 2.5 database file (server/model/maintenance.js)
// imported through the API become windows over the checks of their monitors; a re-run replaces
// them instead of adding more.

describe.each(DATABASE_KINDS)('importing the maintenance of a self-hosted monitor database [%s]', (kind) => {
  const clock = manualClock(new Date('2026-03-20T12:00:00Z'));
  let daemon: TestDaemon;
  let admin: string;
  let file: Uint8Array;
  const convert = (query: string) => daemon.request('POST', convertPath(`source=selfhosted-monitor-db&${query}`), { token: admin, raw: file });
  const windows = async () => (await daemon.request('GET', '/orgs/default/maintenance-windows', { token: admin })).body.items;

  beforeAll(async () => {
    file = await buildFixtureDatabase('2.5', 'maintenance-2.5.sql');
    daemon = await startTestDaemon(kind, { clock });
    admin = await daemon.adminToken();
  });
  afterAll(() => daemon.stop());

  it('creates one window per scheduled entry, once however often it runs', async () => {
    for (let run = 0; run < 2; run++) {
      const applied = await convert('dryRun=false');
      expect(applied.status, JSON.stringify(applied.body)).toBe(200);
      expect(applied.body.maintenanceWindows).toBe(5);
    }
    const items = await windows();
    const byTitle = Object.fromEntries(items.map((window: { title: string }) => [window.title, window]));
    expect(Object.keys(byTitle).sort()).toEqual(['Database upgrade', 'Every third day', 'Month end', 'Nightly backup', 'Weekend patching']);
    expect(byTitle['Database upgrade']).toMatchObject({
      allChecks: false,
      checks: ['api', 'shop'],
      timezone: 'Europe/Berlin',
      occurrence: { startsAt: '2026-04-01T20:00:00.000Z', endsAt: '2026-04-01T23:00:00.000Z' },
    });
    // Friday 20 March 2026: the next is Saturday 21 March, 02:00 EDT (06:00Z), for two hours.
    expect(byTitle['Weekend patching']).toMatchObject({
      recurrence: 'FREQ=WEEKLY;BYDAY=SA,SU;UNTIL=20270101T045959Z',
      checks: ['shop'],
      occurrence: { startsAt: '2026-03-21T06:00:00.000Z', endsAt: '2026-03-21T08:00:00.000Z' },
    });
    // The last day of March, 23:00 UTC, across midnight.
    expect(byTitle['Month end']).toMatchObject({ occurrence: { startsAt: '2026-03-30T23:00:00.000Z', endsAt: '2026-03-31T01:00:00.000Z' } });
    const forApi = await daemon.request('GET', '/orgs/default/maintenance-windows?check=api', { token: admin });
    expect(forApi.body.items.map((window: { title: string }) => window.title).sort()).toEqual(['Database upgrade', 'Month end', 'Nightly backup']);
  });
});
