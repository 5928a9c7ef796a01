import type { Selectable } from 'kysely';
import type { PublicMaintenance } from '../../../contract/maintenance-windows.js';
import type { Executor } from '../../db/executor.js';
import type { MaintenanceWindowsTable } from '../../db/schema.js';
import { labelsMatch, scheduleOf } from '../../maintenance/coverage.js';
import { currentOrNext } from '../../maintenance/recurrence.js';

export type { PublicMaintenance };

/** At most this many windows on a page. */
const LIMIT = 20;

/** A listed check as the maintenance section needs it. */
export interface ListedCheck {
  uid: string;
  name: string;
  /** JSON text of the check's labels. */
  labels: string;
}

/** A window of the organization with the listed checks it covers (at least one). */
export interface CoveringWindow {
  window: Selectable<MaintenanceWindowsTable>;
  covered: ListedCheck[];
}

/**
 * The organization's windows that cover at least one of `checks` (by name, by labels or as
 * every check), each with those it covers. Two queries: the windows, and the checks they name
 * among the page's.
 */
export async function windowsCovering(db: Executor, organizationUid: string, checks: readonly ListedCheck[]): Promise<CoveringWindow[]> {
  if (checks.length === 0) return [];
  const windows = await db.selectFrom('maintenance_windows').selectAll().where('organization_uid', '=', organizationUid).execute();
  if (windows.length === 0) return [];
  const named = await db
    .selectFrom('maintenance_window_checks')
    .select(['window_uid', 'check_uid'])
    .where(
      'window_uid',
      'in',
      windows.map((window) => window.uid),
    )
    .where(
      'check_uid',
      'in',
      checks.map((check) => check.uid),
    )
    .execute();
  const labelsOf = new Map(checks.map((check) => [check.uid, JSON.parse(check.labels) as Record<string, string>]));
  return windows
    .map((window) => {
      const wanted = JSON.parse(window.labels) as Record<string, string>;
      const covered = checks.filter(
        (check) =>
          window.all_checks ||
          named.some((pair) => pair.window_uid === window.uid && pair.check_uid === check.uid) ||
          labelsMatch(labelsOf.get(check.uid)!, wanted),
      );
      return { window, covered };
    })
    .filter((entry) => entry.covered.length > 0);
}

/**
 * The maintenance of a page's checks: each window of the organization that covers one of them
 * with its occurrence under way or its next one, by start.
 */
export async function loadPublicMaintenance(
  db: Executor,
  organizationUid: string,
  checks: readonly ListedCheck[],
  nowMs: number,
): Promise<PublicMaintenance[]> {
  const shown: PublicMaintenance[] = [];
  for (const { window, covered } of await windowsCovering(db, organizationUid, checks)) {
    const occurrence = currentOrNext(scheduleOf(window), nowMs);
    if (!occurrence) continue;
    shown.push({
      uid: window.uid,
      title: window.title,
      description: window.description,
      startsAt: new Date(occurrence.start).toISOString(),
      endsAt: new Date(occurrence.end).toISOString(),
      active: occurrence.start <= nowMs,
      checks: covered.map((check) => check.name),
      updatedAt: window.updated_at,
    });
  }
  return shown.sort((a, b) => a.startsAt.localeCompare(b.startsAt)).slice(0, LIMIT);
}
