import type { Executor } from '../db/executor.js';
import type { MaintenanceWindowsTable } from '../db/schema.js';
import { occurrencesBetween, type Occurrence, type WindowSchedule } from './recurrence.js';

// Which checks a maintenance window covers at a time, read from the database inside the
// result writer's transaction: every replica judges a result by the windows as stored now, so a
// window created, changed or deleted on one replica holds for the next batch on all of them.

/** A check as the coverage needs it. */
export interface CoveredCheck {
  uid: string;
  organizationUid: string;
}

/** Whether a check is in maintenance at a time (epoch ms). */
export type InMaintenance = (checkUid: string, at: number) => boolean;

const NOTHING: InMaintenance = () => false;

/** The schedule of a stored window. */
export function scheduleOf(row: Pick<MaintenanceWindowsTable, 'starts_at' | 'ends_at' | 'recurrence' | 'timezone'>): WindowSchedule {
  return { startsAt: Date.parse(row.starts_at), endsAt: Date.parse(row.ends_at), recurrence: row.recurrence, timezone: row.timezone };
}

/** Whether labels hold every pair of `wanted` (an empty `wanted` matches nothing). */
export function labelsMatch(labels: Record<string, string>, wanted: Record<string, string>): boolean {
  const pairs = Object.entries(wanted);
  return pairs.length > 0 && pairs.every(([key, value]) => labels[key] === value);
}

/**
 * Reads the windows of the checks' organizations that have an occurrence within [from, to] and
 * answers which of the checks they cover at a time. A batch whose organizations have no window
 * under way costs one indexed read.
 */
export async function maintenanceCoverage(db: Executor, checks: readonly CoveredCheck[], from: number, to: number): Promise<InMaintenance> {
  const organizations = [...new Set(checks.map((check) => check.organizationUid))];
  if (organizations.length === 0) return NOTHING;
  const rows = await db
    .selectFrom('maintenance_windows')
    .selectAll()
    .where('organization_uid', 'in', organizations)
    .where('starts_at', '<=', new Date(to).toISOString())
    .where((eb) => eb.or([eb('recurrence', 'is not', null), eb('ends_at', '>', new Date(from).toISOString())]))
    .execute();
  const live = rows.map((row) => ({ row, occurrences: occurrencesBetween(scheduleOf(row), from, to + 1) })).filter((w) => w.occurrences.length > 0);
  if (live.length === 0) return NOTHING;
  const checkUids = [...new Set(checks.map((check) => check.uid))];
  const named = await db
    .selectFrom('maintenance_window_checks')
    .select(['window_uid', 'check_uid'])
    .where(
      'window_uid',
      'in',
      live.map((w) => w.row.uid),
    )
    .where('check_uid', 'in', checkUids)
    .execute();
  const byLabels = live.filter((w) => w.row.labels !== '{}');
  const labelsOf = new Map<string, Record<string, string>>();
  if (byLabels.length > 0) {
    const labelled = await db.selectFrom('checks').select(['uid', 'labels']).where('uid', 'in', checkUids).execute();
    for (const row of labelled) labelsOf.set(row.uid, JSON.parse(row.labels));
  }
  const coverage = new Map<string, Occurrence[]>();
  const cover = (checkUid: string, occurrences: Occurrence[]) => coverage.set(checkUid, [...(coverage.get(checkUid) ?? []), ...occurrences]);
  const occurrencesOf = new Map(live.map((w) => [w.row.uid, w.occurrences]));
  for (const pair of named) cover(pair.check_uid, occurrencesOf.get(pair.window_uid)!);
  for (const check of checks) {
    for (const { row, occurrences } of live) {
      if (row.organization_uid !== check.organizationUid) continue;
      if (row.all_checks || labelsMatch(labelsOf.get(check.uid) ?? {}, JSON.parse(row.labels))) cover(check.uid, occurrences);
    }
  }
  return (checkUid, at) => coverage.get(checkUid)?.some((o) => o.start <= at && at < o.end) ?? false;
}
