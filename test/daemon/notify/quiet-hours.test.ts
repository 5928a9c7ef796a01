import { describe, expect, it } from 'vitest';
import { DEFAULT_NOTIFICATION_SETTINGS } from '../../../daemon/notifications/notification-settings.js';
import { quietHoursEnd } from '../../../daemon/notify/quiet-hours.js';

const quiet = (start: string, end: string, timeZone: string) => ({ ...DEFAULT_NOTIFICATION_SETTINGS, quietHours: { start, end, timeZone } });

describe('quiet hours', () => {
  it('holds mail until the window ends, in the member’s time zone, across midnight', () => {
    // 23:30 in Berlin (summer, UTC+2) is inside 22:00-07:00; it ends at 07:00 Berlin = 05:00 UTC.
    expect(quietHoursEnd(quiet('22:00', '07:00', 'Europe/Berlin'), new Date('2026-06-01T21:30:00Z'))?.toISOString()).toBe('2026-06-02T05:00:00.000Z');
    // 06:59 Berlin is still inside.
    expect(quietHoursEnd(quiet('22:00', '07:00', 'Europe/Berlin'), new Date('2026-06-02T04:59:00Z'))?.toISOString()).toBe('2026-06-02T05:00:00.000Z');
  });

  it('lets mail through outside the window, at its end, and without quiet hours', () => {
    expect(quietHoursEnd(quiet('22:00', '07:00', 'Europe/Berlin'), new Date('2026-06-02T05:00:00Z'))).toBeUndefined();
    expect(quietHoursEnd(quiet('12:00', '13:00', 'America/New_York'), new Date('2026-01-10T15:00:00Z'))).toBeUndefined();
    expect(quietHoursEnd(quiet('12:00', '13:00', 'America/New_York'), new Date('2026-01-10T17:15:00Z'))?.toISOString()).toBe('2026-01-10T18:00:00.000Z');
    expect(quietHoursEnd(DEFAULT_NOTIFICATION_SETTINGS, new Date())).toBeUndefined();
  });
});
