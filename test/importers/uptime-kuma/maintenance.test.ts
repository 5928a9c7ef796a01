import { beforeAll, describe, expect, it } from 'vitest';
import type { ConversionResult } from '../../../importers/converter.js';
import { convertSelfhostedMonitorDb, prepareSelfhostedMonitorDb } from '../../../importers/uptime-kuma/index.js';
import { simpleCron } from '../../../importers/uptime-kuma/maintenance-cron.js';
import { buildDatabase, buildFixtureDatabase } from '../../fixtures/import/uptime-kuma/build-database.js';

// The maintenance entries of a 2.5 database, per strategy as server/model/maintenance.js (2.5.3)
// runs them: `single` from start_date to end_date; the recurring strategies at start_time..end_time
// (generateCron(), calcDuration(): across midnight when the end is earlier) within the date range;
// `cron` at its pattern for `duration` seconds; all in the entry's time zone (getTimezone():
// SAME_AS_SERVER is the server's).

describe('maintenance entries of the self-hosted monitor', () => {
  let result: ConversionResult;
  beforeAll(async () => {
    await prepareSelfhostedMonitorDb();
    result = convertSelfhostedMonitorDb(await buildFixtureDatabase('2.5', 'maintenance-2.5.sql'));
  });

  it('turns each scheduled strategy into a window over the checks of its monitors', () => {
    expect(result.checks.map((check) => check.slug)).toEqual(['shop', 'api']);
    expect(result.maintenance).toEqual([
      {
        item: 'maintenance Database upgrade',
        title: 'Database upgrade',
        description: 'Postgres 17',
        startsAt: '2026-04-01T20:00:00.000Z',
        endsAt: '2026-04-01T23:00:00.000Z',
        recurrence: null,
        timezone: 'Europe/Berlin',
        allChecks: false,
        checks: ['shop', 'api'],
      },
      {
        item: 'maintenance Weekend patching',
        title: 'Weekend patching',
        description: null,
        startsAt: '2026-01-01T07:00:00.000Z',
        endsAt: '2026-01-01T09:00:00.000Z',
        recurrence: 'FREQ=WEEKLY;BYDAY=SA,SU;UNTIL=20270101T045959Z',
        timezone: 'America/New_York',
        allChecks: false,
        checks: ['shop'],
      },
      {
        item: 'maintenance Month end',
        title: 'Month end',
        description: null,
        startsAt: '2025-01-05T23:00:00.000Z',
        endsAt: '2025-01-06T01:00:00.000Z',
        recurrence: 'FREQ=MONTHLY;BYMONTHDAY=1,-1,-2',
        timezone: 'UTC',
        allChecks: false,
        checks: ['api'],
      },
      {
        item: 'maintenance Every third day',
        title: 'Every third day',
        description: null,
        startsAt: '2025-01-05T03:00:00.000Z',
        endsAt: '2025-01-05T03:30:00.000Z',
        recurrence: 'FREQ=DAILY;INTERVAL=3',
        timezone: 'UTC',
        allChecks: false,
        checks: ['shop'],
      },
      {
        item: 'maintenance Nightly backup',
        title: 'Nightly backup',
        description: null,
        startsAt: '2025-01-05T01:30:00.000Z',
        endsAt: '2025-01-05T02:00:00.000Z',
        recurrence: 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR',
        timezone: 'Europe/London',
        allChecks: false,
        checks: ['api'],
      },
    ]);
  });

  it('warns about every entry it cannot carry over exactly', () => {
    const warnings = result.warnings.filter((warning) => warning.item.startsWith('maintenance '));
    expect(warnings.map(({ item, code, field }) => ({ item, code, field }))).toEqual([
      { item: 'maintenance Month end', code: 'VALUE_ADJUSTED', field: 'maintenance.days_of_month' },
      { item: 'maintenance Every third day', code: 'VALUE_ADJUSTED', field: 'maintenance.timezone' },
      { item: 'maintenance Quarter hours', code: 'UNSUPPORTED_SETTING', field: 'maintenance.cron' },
      { item: 'maintenance Emergency', code: 'UNSUPPORTED_SETTING', field: 'maintenance.strategy' },
      { item: 'maintenance Old migration', code: 'UNSUPPORTED_SETTING', field: 'maintenance.active' },
      { item: 'maintenance Group only', code: 'UNSUPPORTED_SETTING', field: 'monitor_maintenance' },
    ]);
    expect(warnings.find((warning) => warning.item === 'maintenance Quarter hours')?.message).toContain('"*/15 * * * *"');
    expect(warnings.find((warning) => warning.item === 'maintenance Every third day')?.message).toContain('UTC was used');
  });

  it('reads only the cron patterns one rule can express', () => {
    expect(simpleCron('0 2 * * *')).toEqual({ time: '02:00', recurrence: 'FREQ=DAILY' });
    expect(simpleCron('5 23 1,15,L * *')).toEqual({ time: '23:05', recurrence: 'FREQ=MONTHLY;BYMONTHDAY=1,15,-1' });
    expect(simpleCron('0 4 * * 0,7')).toEqual({ time: '04:00', recurrence: 'FREQ=WEEKLY;BYDAY=SU' });
    for (const cron of ['0 4 1 * 1', '0 4 * 1 *', '0 */2 * * *', '0 4 * * 1-5', '0 0 4 * * *', '']) expect(simpleCron(cron)).toBeUndefined();
  });

  it('skips, with a warning naming the column, an entry missing what its strategy needs', async () => {
    const database = await buildDatabase(
      '2.5',
      `INSERT INTO monitor (id, name, type, url, interval) VALUES (1, 'Shop', 'http', 'https://shop.example.com/', 60);
       INSERT INTO maintenance (id, title, description, strategy, start_date, end_date, start_time, end_time, weekdays, days_of_month, interval_day, timezone) VALUES
         (1, 'No end', '', 'single', '2026-01-01 00:00:00', NULL, NULL, NULL, '[]', '[]', NULL, 'UTC'),
         (2, 'Backwards', '', 'single', '2026-01-02 00:00:00', '2026-01-01 00:00:00', NULL, NULL, '[]', '[]', NULL, 'UTC'),
         (3, 'Bad weekdays', '', 'recurring-weekday', NULL, NULL, '01:00', '02:00', 'nonsense', '[]', NULL, 'UTC'),
         (4, 'No days', '', 'recurring-day-of-month', NULL, NULL, '01:00', '02:00', '[]', '[]', NULL, 'UTC'),
         (5, 'Empty range', '', 'recurring-interval', NULL, NULL, '01:00', '01:00', '[]', '[]', 2, 'UTC'),
         (6, 'Mars time', '', 'recurring-interval', NULL, NULL, '01:00', '02:00', '[]', '[]', 2, 'Mars/Olympus'),
         (7, 'Someday', '', 'weekly', NULL, NULL, '01:00', '02:00', '[]', '[]', NULL, 'UTC');
       INSERT INTO monitor_maintenance (monitor_id, maintenance_id) VALUES (1, 1), (1, 2), (1, 3), (1, 4), (1, 5), (1, 6), (1, 7);`,
    );
    const converted = convertSelfhostedMonitorDb(database);
    expect(converted.maintenance).toBeUndefined();
    expect(converted.warnings.filter((warning) => warning.item.startsWith('maintenance ')).map(({ item, code, field }) => ({ item, code, field }))).toEqual([
      { item: 'maintenance No end', code: 'UNSUPPORTED_SETTING', field: 'maintenance.end_date' },
      { item: 'maintenance Backwards', code: 'UNSUPPORTED_SETTING', field: 'maintenance.end_date' },
      { item: 'maintenance Bad weekdays', code: 'UNSUPPORTED_SETTING', field: 'maintenance.weekdays' },
      { item: 'maintenance No days', code: 'UNSUPPORTED_SETTING', field: 'maintenance.days_of_month' },
      { item: 'maintenance Empty range', code: 'UNSUPPORTED_SETTING', field: 'maintenance.end_time' },
      { item: 'maintenance Mars time', code: 'UNSUPPORTED_SETTING', field: 'maintenance.timezone' },
      { item: 'maintenance Someday', code: 'UNSUPPORTED_SETTING', field: 'maintenance.strategy' },
    ]);
  });
});
