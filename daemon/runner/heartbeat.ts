import type { ProbeResult } from '../../probes/probe.js';
import type { Db } from '../db/connect.js';
import type { ClaimedRun } from './claim.js';
import { writeRecords } from './result-writer.js';

// Heartbeat checks are passive: the monitored job pings the service, and silence is the failure.
// A ping records a result at once; the scheduled run of the check only looks at the deadline.

/** The heartbeat's config as the catalog defines it. */
interface HeartbeatConfig {
  periodSeconds: number;
  graceSeconds: number;
}

/**
 * A heartbeat's scheduled run: `down` when no ping came within period plus grace, otherwise
 * nothing to record.
 */
export function heartbeatVerdict(run: Pick<ClaimedRun, 'lastPingAt' | 'armedAt'>, config: HeartbeatConfig, nowMs: number): ProbeResult | null {
  const allowedMs = (config.periodSeconds + config.graceSeconds) * 1000;
  // The deadline runs from the last ping, or from when the check was first seen or last paused
  // (a check enabled again is not late for the silence of its pause).
  const since = Math.max(run.lastPingAt ?? 0, run.armedAt);
  if (nowMs - since <= allowedMs) return null;
  const silence = Math.round((nowMs - since) / 1000);
  const what = run.lastPingAt === null || run.lastPingAt < run.armedAt ? 'no ping yet' : 'no ping';
  return { status: 'down', latencyMs: 0, message: `${what} for ${silence} s (period ${config.periodSeconds} s + grace ${config.graceSeconds} s)` };
}

/** What a ping did: recorded, ignored because the check is paused, or nothing (an unknown token). */
export type PingOutcome = 'recorded' | 'paused' | undefined;

/**
 * Records a ping of `token`: `up`, or `down` for `/fail`. `admit` is asked once the check is
 * known and before anything is written (the per-check rate limit throws its 429 there).
 */
export async function recordPing(
  db: Db,
  token: string,
  kind: 'up' | 'fail',
  nowMs: number,
  admit: (checkUid: string) => Promise<void> = async () => {},
): Promise<PingOutcome> {
  const row = await db.kysely
    .selectFrom('check_states as s')
    .innerJoin('checks as c', 'c.uid', 's.check_uid')
    .select(['s.series', 'c.uid', 'c.organization_uid', 'c.slug', 'c.name', 'c.type', 'c.enabled', 'c.thresholds'])
    .where('s.ping_token', '=', token)
    .executeTakeFirst();
  if (row?.type !== 'heartbeat') return undefined;
  if (!row.enabled) return 'paused';
  await admit(row.uid);
  const result: ProbeResult =
    kind === 'up' ? { status: 'up', latencyMs: 0, message: 'ok' } : { status: 'down', latencyMs: 0, message: 'the job reported a failure' };
  await writeRecords(db, [
    {
      series: Number(row.series),
      check: { uid: row.uid, organizationUid: row.organization_uid, slug: row.slug, name: row.name, thresholds: JSON.parse(row.thresholds) },
      at: nowMs,
      result,
      ping: true,
    },
  ]);
  return 'recorded';
}
