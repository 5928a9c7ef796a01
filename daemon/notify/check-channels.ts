import { sql } from 'kysely';
import { inTransaction } from '../db/in-transaction.js';
import { validationFailed } from '../errors.js';
import type { Executor } from '../db/executor.js';

/** The channels a check chose, in uid order (empty: the organization's default channels apply). */
export async function readCheckChannels(db: Executor, checkUid: string): Promise<string[]> {
  const rows = await db.selectFrom('check_channels').select('channel_uid').where('check_uid', '=', checkUid).orderBy('channel_uid').execute();
  return rows.map((row) => row.channel_uid);
}

/**
 * Replaces the channels a check chose. Every uid must name a channel of the check's
 * organization (400 lists each one that does not); nothing changes unless all do.
 */
export async function writeCheckChannels(db: Executor, orgUid: string, checkUid: string, channelUids: string[]): Promise<string[]> {
  const wanted = [...new Set(channelUids)];
  return inTransaction(db, async (trx) => {
    const known = wanted.length
      ? new Set(
          (await trx.selectFrom('notification_channels').select('uid').where('organization_uid', '=', orgUid).where('uid', 'in', wanted).execute()).map(
            (r) => r.uid,
          ),
        )
      : new Set<string>();
    const issues = channelUids.flatMap((uid, i) =>
      known.has(uid) ? [] : [{ path: `channels.${i}`, message: `no notification channel "${uid}" in this organization` }],
    );
    if (issues.length > 0) throw validationFailed(issues, 'The channel choice is not valid.');
    // The check's row lock (a no-op update): two replacements at once take turns instead of both
    // inserting into an empty list, which on PostgreSQL failed the second with a duplicate key.
    await trx.updateTable('checks').set({ enabled: sql`enabled` }).where('uid', '=', checkUid).execute();
    await trx.deleteFrom('check_channels').where('check_uid', '=', checkUid).execute();
    if (wanted.length)
      await trx
        .insertInto('check_channels')
        .values(wanted.map((uid) => ({ check_uid: checkUid, channel_uid: uid, organization_uid: orgUid })))
        .execute();
    return wanted.sort();
  });
}
