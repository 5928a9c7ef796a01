import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../daemon/clock.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { convertPath } from '../import/helpers.js';

// Gatus's top-level `maintenance:` block (TwiN/gatus config/maintenance/maintenance.go) imported
// through the API becomes a window over every check at the same Berlin wall-clock time; a re-run
// replaces it instead of adding a second, and a source without the block removes it.

const FIXTURE = readFileSync(new URL('../../fixtures/import/gatus/maintenance.yaml', import.meta.url));

describe.each(DATABASE_KINDS)('importing maintenance windows [%s]', (kind) => {
  const clock = manualClock(new Date('2026-03-20T12:00:00Z'));
  let daemon: TestDaemon;
  let admin: string;
  const convert = (query: string, raw: Uint8Array | string) => daemon.request('POST', convertPath(`source=configfile-monitor&${query}`), { token: admin, raw });
  const windows = async () => (await daemon.request('GET', '/orgs/default/maintenance-windows', { token: admin })).body.items;

  beforeAll(async () => {
    daemon = await startTestDaemon(kind, { clock });
    admin = await daemon.adminToken();
  });
  afterAll(() => daemon.stop());

  it('previews the window without writing it, then creates it once however often it runs', async () => {
    const preview = await convert('dryRun=true', FIXTURE);
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ created: 1, maintenanceWindows: 1 });
    expect(await windows()).toEqual([]);
    for (let run = 0; run < 2; run++) {
      const applied = await convert('dryRun=false', FIXTURE);
      expect(applied.status, JSON.stringify(applied.body)).toBe(200);
      expect(applied.body.maintenanceWindows).toBe(1);
    }
    const [window] = await windows();
    expect(await windows()).toHaveLength(1);
    // Friday 20 March 2026: the next is Saturday 21 March, 02:00 CET (01:00Z), for 1h30m.
    expect(window).toMatchObject({
      allChecks: true,
      recurrence: 'FREQ=WEEKLY;BYDAY=SA,SU',
      timezone: 'Europe/Berlin',
      occurrence: { startsAt: '2026-03-21T01:00:00.000Z', endsAt: '2026-03-21T02:30:00.000Z' },
    });
    const forShop = await daemon.request('GET', '/orgs/default/maintenance-windows?check=shop', { token: admin });
    expect(forShop.body.items).toHaveLength(1);
  });

  it('removes the window when the source no longer has it, and keeps windows made by hand', async () => {
    const byHand = await daemon.request('POST', '/orgs/default/maintenance-windows', {
      token: admin,
      body: { title: 'By hand', startsAt: '2026-04-01T00:00:00Z', endsAt: '2026-04-01T01:00:00Z', checks: ['shop'] },
    });
    expect(byHand.status).toBe(201);
    const without = FIXTURE.toString('utf8').replace(/^maintenance:[\s\S]*?\n\n/m, '');
    const applied = await convert('dryRun=false', without);
    expect(applied.status).toBe(200);
    expect((await windows()).map((w: { title: string }) => w.title)).toEqual(['By hand']);
  });
});
