import { RRuleTemporal } from 'rrule-temporal';

// A window's occurrences. A window without a recurrence happens once, from its start to its
// end. With one, its start is the DTSTART of an RFC 5545 RRULE read as wall-clock time in the
// window's time zone, and each occurrence lasts as long as the first: `FREQ=WEEKLY;BYDAY=SU`
// from Sunday 02:00 in Europe/Berlin stays at 02:00 local time through daylight saving, so its
// UTC instant moves by an hour. As RFC 5545 (3.3.10) requires, an occurrence whose local time
// does not exist (02:30 on the night the clocks go forward) is skipped.

/** What a window's schedule is made of. */
export interface WindowSchedule {
  /** Epoch ms of the first occurrence's start and end. */
  startsAt: number;
  endsAt: number;
  /** An RRULE without DTSTART (`FREQ=WEEKLY;BYDAY=SU`), or null for once. */
  recurrence: string | null;
  /** An IANA time zone the recurrence is read in. */
  timezone: string;
}

/** One occurrence: epoch ms, end excluded. */
export interface Occurrence {
  start: number;
  end: number;
}

/** Frequencies too fine for a maintenance window. */
const TOO_FREQUENT = new Set(['SECONDLY', 'MINUTELY']);

/** Whether `timezone` is an IANA time zone this runtime knows. */
export function isTimeZone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock time of an instant in a time zone, as an iCalendar local DATE-TIME (20260301T020000). */
function localDateTime(ms: number, timezone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(new Date(ms))
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}${parts.month}${parts.day}T${parts.hour}${parts.minute}${parts.second}`;
}

/** The rule of a recurring window, its DTSTART the window's start in its time zone. */
function ruleOf(schedule: WindowSchedule & { recurrence: string }): RRuleTemporal {
  const rrule = schedule.recurrence.replace(/^RRULE:/i, '');
  return new RRuleTemporal({ rruleString: `DTSTART;TZID=${schedule.timezone}:${localDateTime(schedule.startsAt, schedule.timezone)}\nRRULE:${rrule}` });
}

/**
 * What is wrong with a recurrence (a sentence), or null when it is a rule this API takes: an
 * RRULE (without DTSTART) no more frequent than hourly.
 */
export function recurrenceProblem(recurrence: string, timezone: string): string | null {
  const rrule = recurrence.replace(/^RRULE:/i, '');
  if (/[\r\n]/.test(rrule) || /DTSTART/i.test(rrule)) return 'is one RRULE line without DTSTART (the start is startsAt)';
  const freq = /(?:^|;)FREQ=([A-Z]+)/i.exec(rrule)?.[1]?.toUpperCase();
  if (!freq) return 'needs FREQ (e.g. FREQ=WEEKLY;BYDAY=SU)';
  if (TOO_FREQUENT.has(freq)) return 'repeats at most hourly (FREQ=HOURLY or coarser)';
  try {
    ruleOf({ startsAt: Date.UTC(2026, 0, 1), endsAt: Date.UTC(2026, 0, 1, 1), recurrence: rrule, timezone }).next(new Date(Date.UTC(2026, 0, 1)), true);
    return null;
  } catch (error) {
    return `is not an RFC 5545 RRULE: ${(error as Error).message}`;
  }
}

/** The occurrences that overlap [from, to), in time order. */
export function occurrencesBetween(schedule: WindowSchedule, from: number, to: number): Occurrence[] {
  const length = schedule.endsAt - schedule.startsAt;
  if (schedule.recurrence === null) {
    return schedule.startsAt < to && schedule.endsAt > from ? [{ start: schedule.startsAt, end: schedule.endsAt }] : [];
  }
  if (schedule.startsAt >= to) return [];
  const rule = ruleOf({ ...schedule, recurrence: schedule.recurrence });
  return rule
    .between(new Date(Math.max(schedule.startsAt, from - length)), new Date(to), true)
    .map((at) => at.epochMilliseconds)
    .filter((start) => start < to && start + length > from)
    .map((start) => ({ start, end: start + length }));
}

/** The occurrence under way at `at`, if any. */
export function occurrenceAt(schedule: WindowSchedule, at: number): Occurrence | null {
  return occurrencesBetween(schedule, at, at + 1)[0] ?? null;
}

/** The occurrence under way at `at`, else the next one to begin after it; null when none is left. */
export function currentOrNext(schedule: WindowSchedule, at: number): Occurrence | null {
  const now = occurrenceAt(schedule, at);
  if (now) return now;
  if (schedule.recurrence === null) return schedule.startsAt > at ? { start: schedule.startsAt, end: schedule.endsAt } : null;
  const next = ruleOf({ ...schedule, recurrence: schedule.recurrence }).next(new Date(at), false);
  return next ? { start: next.epochMilliseconds, end: next.epochMilliseconds + (schedule.endsAt - schedule.startsAt) } : null;
}
