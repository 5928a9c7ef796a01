import { DEFAULT_NOTIFICATION_SETTINGS, notificationSettingsSchema, type NotificationSettings } from '../notifications/notification-settings.js';
import type { Executor } from '../db/executor.js';
import { readOncePerTransaction } from '../db/transaction-reads.js';

/** A channel a message goes to. */
export interface ChannelTarget {
  uid: string;
  type: string;
}

/**
 * The channels the check chose, or the organization's default channels when it chose none (or
 * there is no check). `knownChosen`: the check's choice, known already (opening-reads.ts).
 */
export async function channelsFor(
  db: Executor,
  orgUid: string,
  checkUid: string | null,
  knownChosen?: readonly ChannelTarget[],
): Promise<readonly ChannelTarget[]> {
  if (checkUid) {
    const chosen =
      knownChosen ??
      (await db
        .selectFrom('check_channels as cc')
        .innerJoin('notification_channels as ch', 'ch.uid', 'cc.channel_uid')
        .select(['ch.uid', 'ch.type'])
        .where('cc.check_uid', '=', checkUid)
        .where('ch.organization_uid', '=', orgUid)
        .orderBy('ch.uid')
        .execute());
    if (chosen.length > 0) return chosen;
  }
  return readOncePerTransaction(db, `defaults ${orgUid}`, () =>
    db.selectFrom('notification_channels').select(['uid', 'type']).where('organization_uid', '=', orgUid).where('is_default', '=', 1).orderBy('uid').execute(),
  );
}

/** A member who gets personal e-mail about an event, with their settings. */
export interface MailRecipient {
  email: string;
  settings: NotificationSettings;
}

/** The members whose own settings ask for e-mail about `event` (quiet hours are applied by the caller). */
export function mailRecipients(db: Executor, orgUid: string, event: string): Promise<readonly MailRecipient[]> {
  return readOncePerTransaction(db, `recipients ${orgUid} ${event}`, () => readMailRecipients(db, orgUid, event));
}

async function readMailRecipients(db: Executor, orgUid: string, event: string): Promise<MailRecipient[]> {
  const rows = await db
    .selectFrom('members as m')
    .innerJoin('users as u', 'u.uid', 'm.user_uid')
    .leftJoin('notification_settings as s', (join) => join.onRef('s.organization_uid', '=', 'm.organization_uid').onRef('s.user_uid', '=', 'm.user_uid'))
    .select(['u.email', 's.settings'])
    .where('m.organization_uid', '=', orgUid)
    .where('u.email_verified', '=', 1)
    .orderBy('u.email')
    .execute();
  const recipients: MailRecipient[] = [];
  for (const row of rows) {
    // Stored documents were valid when saved; parsing again fills fields added since.
    const parsed = row.settings ? notificationSettingsSchema.safeParse(JSON.parse(row.settings)) : undefined;
    const settings = parsed?.success ? parsed.data : DEFAULT_NOTIFICATION_SETTINGS;
    if (settings.email && (settings.events as string[]).includes(event)) recipients.push({ email: row.email, settings });
  }
  return recipients;
}
