// A maintenance window a source defines, as a converter hands it over: the import endpoint
// creates it (replacing the windows the same source imported before).

/** A maintenance window converted from a source. */
export interface MaintenanceCandidate {
  /** The source item it came from, as warnings name it. */
  item: string;
  title: string;
  description: string | null;
  /** ISO-8601 UTC: the first occurrence. */
  startsAt: string;
  endsAt: string;
  /** An RFC 5545 RRULE without DTSTART, or null for once. */
  recurrence: string | null;
  timezone: string;
  allChecks: boolean;
  /** Slugs of the converted checks it covers. */
  checks: string[];
}

/** Whether `timezone` is an IANA time zone the runtime knows. */
export function knownTimeZone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

/** The UTC offset (ms) of a time zone at an instant. */
function offsetAt(ms: number, timezone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
      .formatToParts(new Date(ms))
      .map((part) => [part.type, Number(part.value)]),
  );
  return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second) - Math.floor(ms / 1000) * 1000;
}

/** The instant (ms) of a wall-clock time (`2025-01-05`, `23:30`) in a time zone. */
export function wallClockToUtc(date: string, time: string, timezone: string): number {
  const [year, month, day] = date.split('-').map(Number);
  const [hour, minute, second = 0] = time.split(':').map(Number);
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  // Two passes settle the offset on either side of a daylight-saving change.
  const first = asUtc - offsetAt(asUtc, timezone);
  return asUtc - offsetAt(first, timezone);
}
