import { Cron } from 'croner';

// A heartbeat's cron schedule: when the next ping is expected. Local times are read in the
// schedule's time zone, so a daily 02:00 stays 02:00 across daylight-saving changes. On the
// spring change a local time that does not exist that day (02:00-02:59 in Europe/Berlin) is
// expected at the first minute after the change (03:00); on the autumn change a time that
// exists twice is expected once, at its first occurrence. That is how cron itself (and the
// cron checks of Healthchecks.io) behave.

/** Answers kept per function: an import validates thousands of checks that share a few schedules and zones. */
const REMEMBERED = 1000;

/** `fn` with its answers kept per argument (the first REMEMBERED arguments; later ones are computed each time). */
function remembered<T>(fn: (argument: string) => T): (argument: string) => T {
  const answers = new Map<string, T>();
  return (argument) => {
    if (answers.has(argument)) return answers.get(argument) as T;
    const answer = fn(argument);
    if (answers.size < REMEMBERED) answers.set(argument, answer);
    return answer;
  };
}

/** What is wrong with a cron expression, or undefined when it is a valid five-field one (or a nickname like `@daily`). */
export const cronProblem = remembered((expression: string): string | undefined => {
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
});

/** Whether `timezone` is an IANA time zone name this runtime knows (e.g. `Europe/Berlin`, `UTC`). */
export const isTimeZone = remembered((timezone: string): boolean => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
});

/** The first time (epoch ms) strictly after `afterMs` that `expression` matches in `timezone`, or null when it never will. */
export function nextCronTime(expression: string, timezone: string, afterMs: number): number | null {
  const next = new Cron(expression.trim(), { paused: true, timezone }).nextRun(new Date(afterMs));
  return next ? next.getTime() : null;
}
