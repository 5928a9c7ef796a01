import { Cron } from 'croner';

// A heartbeat's cron schedule: when the next ping is expected. Local times are read in the
// schedule's time zone, so a daily 02:00 stays 02:00 across daylight-saving changes. On the
// spring change a local time that does not exist that day (02:00-02:59 in Europe/Berlin) is
// expected at the first minute after the change (03:00); on the autumn change a time that
// exists twice is expected once, at its first occurrence. That is how cron itself (and the
// cron checks of Healthchecks.io) behave.

/** What is wrong with a cron expression, or undefined when it is a valid five-field one (or a nickname like `@daily`). */
export function cronProblem(expression: string): string | undefined {
  const trimmed = expression.trim();
  if (!trimmed.startsWith('@') && trimmed.split(/\s+/).length !== 5) {
    return 'expected five fields (minute hour day-of-month month day-of-week), e.g. "0 2 * * *"';
  }
  try {
    const next = new Cron(trimmed, { paused: true, timezone: 'UTC' }).nextRun(new Date(0));
    return next ? undefined : 'the expression never matches a date';
  } catch (error) {
    return error instanceof Error ? error.message : 'not a cron expression';
  }
}

/** Whether `timezone` is an IANA time zone name this runtime knows (e.g. `Europe/Berlin`, `UTC`). */
export function isTimeZone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

/** The first time (epoch ms) strictly after `afterMs` that `expression` matches in `timezone`, or null when it never will. */
export function nextCronTime(expression: string, timezone: string, afterMs: number): number | null {
  const next = new Cron(expression.trim(), { paused: true, timezone }).nextRun(new Date(afterMs));
  return next ? next.getTime() : null;
}
