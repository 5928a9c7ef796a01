import type { ConversionBuilder } from '../shared/conversion-builder.js';
import { isRecord } from '../shared/input-text.js';
import { knownTimeZone, wallClockToUtc } from '../shared/maintenance-candidate.js';
import { textValue } from '../shared/values.js';
import { parseGoDuration } from './go-duration.js';

// Gatus's top-level `maintenance:` block (config/maintenance/maintenance.go): `start` (hh:mm),
// `duration` (a Go duration, above 0 and at most 24h), `timezone` (IANA, default UTC), `every`
// (weekday names, every day when empty) and `enabled` (true unless false). During it no alert
// is sent for any endpoint: it becomes one window over every check, repeated daily or on the
// named weekdays at the same wall-clock time.

const DAYS: Record<string, string> = { Sunday: 'SU', Monday: 'MO', Tuesday: 'TU', Wednesday: 'WE', Thursday: 'TH', Friday: 'FR', Saturday: 'SA' };

/** The first day a converted window is anchored on: a fixed date keeps the conversion pure and repeatable. */
export const ANCHOR_DAY = '2025-01-05';

/** Converts the top-level `maintenance` block into a window of every check, or warns why not. */
export function convertMaintenance(block: unknown, builder: ConversionBuilder): void {
  if (!isRecord(block) || Object.keys(block).length === 0) return;
  const scope = builder.item('maintenance');
  if (block.enabled === false) {
    scope.warn('UNSUPPORTED_SETTING', 'the maintenance window is disabled (enabled: false); it was not imported', 'maintenance.enabled');
    return;
  }
  const start = textValue(block.start)?.trim() ?? '';
  const clock = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(start);
  const duration = parseGoDuration(textValue(block.duration)?.trim() ?? '');
  const timezone = textValue(block.timezone)?.trim() || 'UTC';
  const every = Array.isArray(block.every) ? block.every.map((day) => String(day)) : [];
  const unknownDays = every.filter((day) => !(day in DAYS));
  const problems = [
    ...(clock ? [] : [`start "${start}" is not hh:mm`]),
    ...(duration === undefined || duration <= 0 || duration > 86_400_000 ? ['duration is not a Go duration above 0 and up to 24h'] : []),
    ...(knownTimeZone(timezone) ? [] : [`timezone "${timezone}" is not an IANA time zone`]),
    ...(unknownDays.length ? [`every names ${unknownDays.join(', ')}, not weekdays (Monday ... Sunday)`] : []),
  ];
  if (problems.length > 0) {
    scope.warn('UNSUPPORTED_SETTING', `the maintenance window was not imported: ${problems.join('; ')}`, 'maintenance');
    return;
  }
  const startsAt = wallClockToUtc(ANCHOR_DAY, start, timezone);
  builder.maintenance({
    item: 'maintenance',
    title: 'Maintenance',
    description: `Imported from the Gatus configuration: ${start} for ${textValue(block.duration)}${every.length ? ` every ${every.join(', ')}` : ' every day'} (${timezone}).`,
    startsAt: new Date(startsAt).toISOString(),
    endsAt: new Date(startsAt + duration!).toISOString(),
    recurrence: every.length ? `FREQ=WEEKLY;BYDAY=${[...new Set(every)].map((day) => DAYS[day]).join(',')}` : 'FREQ=DAILY',
    timezone,
    allChecks: true,
    checks: [],
  });
}
