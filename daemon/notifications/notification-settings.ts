import { z } from 'zod';
import { NOTIFICATION_EVENTS } from '../../contract/notification-channels.js';
import type { Executor } from '../db/executor.js';

export { NOTIFICATION_EVENTS } from '../../contract/notification-channels.js';

const TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$/;

const isTimeZone = (zone: string): boolean => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

/**
 * A member's own notification settings in one organization: whether to get e-mail, which
 * events, and quiet hours (a daily window, in the member's time zone, during
 * which notifications to them are held back). PUT replaces the whole document; left-out fields take their
 * defaults.
 */
export const notificationSettingsSchema = z.strictObject({
  email: z.boolean().default(true),
  events: z
    .array(z.enum(NOTIFICATION_EVENTS))
    .refine((events) => new Set(events).size === events.length, 'lists an event twice')
    .default([...NOTIFICATION_EVENTS]),
  quietHours: z
    .strictObject({
      start: z.string().regex(TIME, 'a time of day, HH:MM'),
      end: z.string().regex(TIME, 'a time of day, HH:MM'),
      timeZone: z.string().max(64).refine(isTimeZone, 'an IANA time zone such as Europe/Berlin'),
    })
    .refine((hours) => hours.start !== hours.end, { message: 'must differ from start', path: ['end'] })
    .nullable()
    .default(null),
});

export type NotificationSettings = z.output<typeof notificationSettingsSchema>;

/** The settings a member has before saving any. */
export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = notificationSettingsSchema.parse({});

/** The member's settings and when they were last saved (null: never, the defaults apply). */
export async function readNotificationSettings(
  db: Executor,
  orgUid: string,
  userUid: string,
): Promise<{ settings: NotificationSettings; updatedAt: string | null }> {
  const row = await db
    .selectFrom('notification_settings')
    .select(['settings', 'updated_at'])
    .where('organization_uid', '=', orgUid)
    .where('user_uid', '=', userUid)
    .executeTakeFirst();
  if (!row) return { settings: DEFAULT_NOTIFICATION_SETTINGS, updatedAt: null };
  // Stored documents were valid when saved; parsing again fills fields added since.
  const parsed = notificationSettingsSchema.safeParse(JSON.parse(row.settings));
  return { settings: parsed.success ? parsed.data : DEFAULT_NOTIFICATION_SETTINGS, updatedAt: row.updated_at };
}

/** Replaces the member's settings. */
export async function writeNotificationSettings(db: Executor, orgUid: string, userUid: string, settings: NotificationSettings, now: Date): Promise<void> {
  const at = now.toISOString();
  await db
    .insertInto('notification_settings')
    .values({ organization_uid: orgUid, user_uid: userUid, settings: JSON.stringify(settings), updated_at: at })
    .onConflict((oc) => oc.columns(['organization_uid', 'user_uid']).doUpdateSet({ settings: JSON.stringify(settings), updated_at: at }))
    .execute();
}
