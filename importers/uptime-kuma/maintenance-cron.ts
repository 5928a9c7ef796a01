// The cron patterns of the `cron` maintenance strategy that one RRULE can express: a fixed
// minute and hour, every month, and either a list of month days (`L` = the last) or a list of
// weekdays (0 and 7 = Sunday), not both (cron then means either, which one rule cannot say).

const WEEKDAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];

/** A simple cron as the start time of the day and the RRULE of the days. */
export interface SimpleCron {
  readonly time: string;
  readonly recurrence: string;
}

function list(field: string, pattern: RegExp): string[] | undefined {
  const items = field.split(',');
  return items.every((item) => pattern.test(item)) ? items : undefined;
}

/** The cron as a time and an RRULE, or undefined when it is not that simple. */
export function simpleCron(cron: string): SimpleCron | undefined {
  const fields = cron.trim().split(/\s+/);
  if (fields.length !== 5) return undefined;
  const [minute, hour, monthDays, month, weekdays] = fields;
  if (!/^([0-5]?\d)$/.test(minute) || !/^(1?\d|2[0-3])$/.test(hour) || month !== '*') return undefined;
  const time = `${hour.padStart(2, '0')}:${minute.padStart(2, '0')}`;
  if (monthDays === '*' && weekdays === '*') return { time, recurrence: 'FREQ=DAILY' };
  if (weekdays === '*') {
    const days = list(monthDays, /^(L|[1-9]|[12]\d|3[01])$/);
    if (!days) return undefined;
    return { time, recurrence: `FREQ=MONTHLY;BYMONTHDAY=${[...new Set(days.map((day) => (day === 'L' ? '-1' : day)))].join(',')}` };
  }
  if (monthDays === '*') {
    const days = list(weekdays, /^[0-7]$/);
    if (!days) return undefined;
    return { time, recurrence: `FREQ=WEEKLY;BYDAY=${[...new Set(days.map((day) => WEEKDAYS[Number(day)]))].join(',')}` };
  }
  return undefined;
}
