import type { NotificationSettings } from '../notifications/notification-settings.js';

const minuteOfDay = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * When a member's quiet hours end, if `now` falls inside them; undefined otherwise. The window
 * is a daily one in the member's time zone and may run over midnight (22:00-07:00).
 */
export function quietHoursEnd(settings: NotificationSettings, now: Date): Date | undefined {
  const hours = settings.quietHours;
  if (!hours) return undefined;
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone: hours.timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(now);
  const local = Number(parts.find((p) => p.type === 'hour')!.value) * 60 + Number(parts.find((p) => p.type === 'minute')!.value);
  const [start, end] = [minuteOfDay(hours.start), minuteOfDay(hours.end)];
  const inside = start < end ? local >= start && local < end : local >= start || local < end;
  if (!inside) return undefined;
  const minutesLeft = (end - local + 1440) % 1440;
  const at = new Date(now.getTime() + minutesLeft * 60_000);
  at.setUTCSeconds(0, 0);
  return at;
}
