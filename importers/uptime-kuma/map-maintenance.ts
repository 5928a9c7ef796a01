import type { ConversionBuilder, ItemScope } from '../converter.js';
import { knownTimeZone, wallClockToUtc } from '../shared/maintenance-candidate.js';
import { simpleCron } from './maintenance-cron.js';
import type { MaintenanceRecord } from './maintenance-record.js';

// The maintenance entries of the 2.x database (server/model/maintenance.js of 2.5.3). Each
// becomes a window over the checks its monitors became: `single` once from start_date to
// end_date; the recurring strategies daily at start_time..end_time (across midnight when the end
// is earlier), within the start_date..end_date range when one is set; `cron` at its pattern for
// `duration` seconds. Dates and times are wall-clock times in the entry's time zone.

const WEEKDAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];

/** The day recurring entries without a start date are anchored on (as the other importers do). */
export const ANCHOR_DAY = '2025-01-05';

interface Schedule {
  readonly startsAt: number;
  readonly endsAt: number;
  readonly recurrence: string | null;
}

/** A problem (why the entry cannot be imported) with the column it is about. */
interface Problem {
  readonly problem: string;
  readonly field: string;
}

const dateTime = (value: string | null) => (value === null ? undefined : (/^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2})?)/.exec(value.trim()) ?? undefined));
const clock = (value: string | null) => (value === null ? undefined : (/^([01]?\d|2[0-3]):([0-5]\d)(?::[0-5]\d)?$/.exec(value.trim()) ?? undefined));

function jsonList(value: string | null): unknown[] | undefined {
  try {
    const parsed: unknown = JSON.parse(value ?? '[]');
    return Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** `UNTIL=` for the end of the date range, or nothing. */
function until(entry: MaintenanceRecord, timezone: string): string {
  const end = dateTime(entry.endDate);
  if (!end) return '';
  return `;UNTIL=${new Date(wallClockToUtc(end[1], end[2], timezone))
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '')}`;
}

function single(entry: MaintenanceRecord, timezone: string): Schedule | Problem {
  const start = dateTime(entry.startDate);
  const end = dateTime(entry.endDate);
  if (!start || !end)
    return { problem: 'a single maintenance needs a start and an end date', field: start ? 'maintenance.end_date' : 'maintenance.start_date' };
  const startsAt = wallClockToUtc(start[1], start[2], timezone);
  const endsAt = wallClockToUtc(end[1], end[2], timezone);
  if (endsAt <= startsAt) return { problem: 'the end date is not after the start date', field: 'maintenance.end_date' };
  return { startsAt, endsAt, recurrence: null };
}

/** The days part of the RRULE of a recurring strategy, or a problem. */
function recurringDays(entry: MaintenanceRecord, scope: ItemScope): string | Problem {
  if (entry.strategy === 'recurring-interval') {
    const days = entry.intervalDay;
    if (days === null || !Number.isInteger(days) || days < 1) return { problem: 'the interval in days is missing', field: 'maintenance.interval_day' };
    return days === 1 ? 'FREQ=DAILY' : `FREQ=DAILY;INTERVAL=${days}`;
  }
  if (entry.strategy === 'recurring-weekday') {
    const days = jsonList(entry.weekdays)?.map(Number);
    if (!days?.length || days.some((day) => !Number.isInteger(day) || day < 0 || day > 7)) {
      return { problem: `the weekdays ${entry.weekdays ?? '[]'} are not a list of 0 (Sunday) to 6`, field: 'maintenance.weekdays' };
    }
    return `FREQ=WEEKLY;BYDAY=${[...new Set(days.map((day) => WEEKDAYS[day]))].join(',')}`;
  }
  const entries = jsonList(entry.daysOfMonth) ?? [];
  const days = entries.map((day) => {
    const last = /^lastDay([1-4])$/.exec(String(day));
    if (last) return -Number(last[1]);
    const number = Number(day);
    return Number.isInteger(number) && number >= 1 && number <= 31 ? number : undefined;
  });
  if (days.length === 0 || days.includes(undefined)) {
    return {
      problem: `the days of the month ${entry.daysOfMonth ?? '[]'} are not a list of 1 to 31 or lastDay1 to lastDay4`,
      field: 'maintenance.days_of_month',
    };
  }
  if (days.some((day) => day! < -1)) {
    // generateCron() turns only lastDay1 into cron's `L` and drops lastDay2..4.
    scope.warn(
      'VALUE_ADJUSTED',
      'the second to fourth last days of the month never started the maintenance in the source; here they do',
      'maintenance.days_of_month',
    );
  }
  return `FREQ=MONTHLY;BYMONTHDAY=${[...new Set(days)].join(',')}`;
}

function recurring(entry: MaintenanceRecord, timezone: string, scope: ItemScope): Schedule | Problem {
  let time: string;
  let lengthMs: number;
  let days: string | Problem;
  if (entry.strategy === 'cron') {
    const cron = simpleCron(entry.cron ?? '');
    if (!cron) {
      return {
        problem: `the cron "${entry.cron ?? ''}" is not a fixed minute and hour on every day, on listed weekdays or on listed days of the month`,
        field: 'maintenance.cron',
      };
    }
    if (entry.duration === null || entry.duration <= 0) return { problem: 'the duration is missing', field: 'maintenance.duration' };
    time = cron.time;
    days = cron.recurrence;
    lengthMs = entry.duration * 1000;
  } else {
    const start = clock(entry.startTime);
    const end = clock(entry.endTime);
    if (!start || !end) return { problem: 'the daily time range is missing', field: start ? 'maintenance.end_time' : 'maintenance.start_time' };
    time = `${start[1].padStart(2, '0')}:${start[2]}`;
    // calcDuration(): an end earlier than the start is on the next day.
    lengthMs = ((Number(end[1]) * 60 + Number(end[2]) - Number(start[1]) * 60 - Number(start[2]) + 1440) % 1440) * 60_000;
    if (lengthMs === 0) return { problem: 'the daily time range is empty', field: 'maintenance.end_time' };
    days = recurringDays(entry, scope);
  }
  if (typeof days !== 'string') return days;
  const day = dateTime(entry.startDate)?.[1] ?? ANCHOR_DAY;
  const startsAt = wallClockToUtc(day, time, timezone);
  return { startsAt, endsAt: startsAt + lengthMs, recurrence: days + until(entry, timezone) };
}

const STRATEGIES = new Set(['single', 'recurring-interval', 'recurring-weekday', 'recurring-day-of-month', 'cron']);

function timezoneOf(entry: MaintenanceRecord, scope: ItemScope): string | undefined {
  const timezone = entry.timezone?.trim() ?? '';
  if (timezone === '' || timezone === 'SAME_AS_SERVER') {
    scope.warn('VALUE_ADJUSTED', "the time zone is the server's, which the database does not record; UTC was used", 'maintenance.timezone');
    return 'UTC';
  }
  if (knownTimeZone(timezone)) return timezone;
  scope.warn('UNSUPPORTED_SETTING', `the time zone "${timezone}" is not an IANA time zone; the maintenance was not imported`, 'maintenance.timezone');
  return undefined;
}

function convertEntry(entry: MaintenanceRecord, builder: ConversionBuilder, slugOf: (monitorId: number) => string | undefined): void {
  const title = entry.title.trim() || `#${entry.id}`;
  const item = `maintenance ${title}`;
  const scope = builder.item(item);
  if (!entry.active) {
    scope.warn('UNSUPPORTED_SETTING', 'the maintenance is paused (active = 0) and windows cannot be paused; it was not imported', 'maintenance.active');
    return;
  }
  if (entry.strategy === 'manual') {
    scope.warn(
      'UNSUPPORTED_SETTING',
      'a manual maintenance is switched on and off by hand and has no schedule; it was not imported: create a window when the work starts',
      'maintenance.strategy',
    );
    return;
  }
  if (!STRATEGIES.has(entry.strategy)) {
    scope.warn('UNSUPPORTED_SETTING', `the maintenance strategy "${entry.strategy}" is unknown; it was not imported`, 'maintenance.strategy');
    return;
  }
  const checks = [...new Set(entry.monitorIds.map(slugOf).filter((slug) => slug !== undefined))];
  if (checks.length === 0) {
    scope.warn('UNSUPPORTED_SETTING', 'the maintenance covers no imported check; it was not imported', 'monitor_maintenance');
    return;
  }
  const timezone = timezoneOf(entry, scope);
  if (timezone === undefined) return;
  const schedule = entry.strategy === 'single' ? single(entry, timezone) : recurring(entry, timezone, scope);
  if ('problem' in schedule) {
    scope.warn('UNSUPPORTED_SETTING', `the maintenance was not imported: ${schedule.problem}`, schedule.field);
    return;
  }
  builder.maintenance({
    item,
    title,
    description: entry.description?.trim() || null,
    startsAt: new Date(schedule.startsAt).toISOString(),
    endsAt: new Date(schedule.endsAt).toISOString(),
    recurrence: schedule.recurrence,
    timezone,
    allChecks: false,
    checks,
  });
}

/** Converts the maintenance entries into windows over the checks `slugOf` names, or warns why not. */
export function convertMaintenance(entries: readonly MaintenanceRecord[], builder: ConversionBuilder, slugOf: (monitorId: number) => string | undefined): void {
  for (const entry of entries) convertEntry(entry, builder, slugOf);
}
