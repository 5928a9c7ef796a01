import type { Executor } from '../db/executor.js';

// The flapping rule: when a check has had more than FLAP_THRESHOLD incidents opened within the
// last FLAP_WINDOW_MINUTES, its incidents' single messages (opened, acknowledged, resolved) are
// replaced by one `check.flapping` summary per channel and person per window. Once the window
// holds FLAP_THRESHOLD or fewer incidents again, single messages resume.

export const FLAP_THRESHOLD = 3;
export const FLAP_WINDOW_MINUTES = 60;

/**
 * How many incidents the check had opened in the window, when that makes it flapping; else
 * undefined. `knownTimes`: when each of its incidents was opened, known already (opening-reads.ts).
 */
export async function flappingCount(db: Executor, checkUid: string, now: Date, knownTimes?: readonly string[]): Promise<number | undefined> {
  const since = new Date(now.getTime() - FLAP_WINDOW_MINUTES * 60_000).toISOString();
  const count = knownTimes
    ? knownTimes.filter((at) => at >= since).length
    : Number(
        (
          await db
            .selectFrom('incidents')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('check_uid', '=', checkUid)
            .where('created_at', '>=', since)
            .executeTakeFirst()
        )?.n ?? 0,
      );
  return count > FLAP_THRESHOLD ? count : undefined;
}

/** The channels and people already sent a flapping summary about the check in this window (`channel:<uid>` or `mail:<address>`). */
export async function alreadySummarised(db: Executor, checkUid: string, now: Date): Promise<Set<string>> {
  const since = new Date(now.getTime() - FLAP_WINDOW_MINUTES * 60_000).toISOString();
  const rows = await db
    .selectFrom('notification_outbox')
    .select(['channel_uid', 'recipient'])
    .where('check_uid', '=', checkUid)
    .where('event', '=', 'check.flapping')
    .where('created_at', '>=', since)
    .execute();
  return new Set(rows.map((row) => targetKey(row.channel_uid, row.recipient)));
}

/** The key of one destination of a message. */
export const targetKey = (channelUid: string | null, recipient: string | null): string => (channelUid ? `channel:${channelUid}` : `mail:${recipient}`);
