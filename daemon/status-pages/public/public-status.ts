import type { PageState, PublicCheck, PublicCheckState, PublicStatus as PublicStatusAnswer } from '../../../contract/status-pages.js';
import type { AppDeps } from '../../deps.js';
import { loadPageUpdates } from './public-updates.js';
import { loadPublicMaintenance } from './public-maintenance.js';

export type { PageState, PublicCheck, PublicCheckState, PublicIncident, PublicUpdate } from '../../../contract/status-pages.js';

/** Everything a public status page shows (the contract's PublicStatus), with when it last changed. */
export interface PublicStatus extends PublicStatusAnswer {
  /** The newest time anything shown changed, for Last-Modified and the feed. */
  updatedAt: string;
}

const DAYS = 90;
const INCIDENT_DAYS = 14;
const DAY_MS = 86_400_000;

const percent = (runs: number, down: number): number | null => (runs === 0 ? null : Math.round(((runs - down) / runs) * 100_000) / 1000);

/** The page's overall state: every counted check up is operational; all down is a major outage. */
export function pageState(states: PublicCheckState[]): PageState {
  const counted = states.filter((state) => state === 'up' || state === 'degraded' || state === 'down');
  const down = counted.filter((state) => state === 'down').length;
  if (down > 0) return down === counted.length ? 'major outage' : 'partial outage';
  return counted.some((state) => state === 'degraded') ? 'degraded' : 'operational';
}

/** Which page to load; `preview` (members only) also loads a page that is not public. */
export interface PageAddress {
  orgSlug: string;
  pageSlug: string;
  preview?: boolean;
}

/**
 * The public view of a status page, or undefined when the organization or page does not exist or
 * the page is not public: the callers answer both with the same 404, so nothing tells them apart.
 * A handful of queries whatever the number of checks: the page, its checks with their states,
 * their daily aggregates (today's only, when the days before are cached: see DayHistoryCache),
 * the page's updates and the checks they name, the incidents of the listed checks, and their
 * maintenance windows (public-maintenance.ts).
 */
export async function loadPublicStatus(deps: Pick<AppDeps, 'db' | 'clock' | 'caches'>, which: PageAddress): Promise<PublicStatus | undefined> {
  const db = deps.db.kysely;
  const nowMs = deps.clock.now().getTime();
  let query = db
    .selectFrom('status_pages as p')
    .innerJoin('organizations as o', 'o.uid', 'p.organization_uid')
    .select(['p.uid', 'p.organization_uid', 'p.title', 'p.description', 'p.updated_at'])
    .where('o.slug', '=', which.orgSlug)
    .where('p.slug', '=', which.pageSlug);
  if (!which.preview) query = query.where('p.public', '=', 1);
  const page = await query.executeTakeFirst();
  if (!page) return undefined;

  const checks = await db
    .selectFrom('status_page_checks as l')
    .innerJoin('checks as c', 'c.uid', 'l.check_uid')
    .leftJoin('check_states as s', 's.check_uid', 'c.uid')
    .select(['c.uid', 'c.name', 'c.labels', 'c.enabled', 's.series', 's.state', 's.state_since'])
    .where('l.status_page_uid', '=', page.uid)
    .orderBy('l.position')
    .execute();

  const today = Math.floor(nowMs / DAY_MS);
  const firstDay = today - DAYS + 1;
  const seriesList = checks.flatMap((check) => (check.series == null ? [] : [Number(check.series)]));
  const checkUids = checks.map((check) => check.uid);
  const since = new Date(nowMs - INCIDENT_DAYS * DAY_MS).toISOString();
  // The rest depends only on the page and its checks: read at once (on PostgreSQL over several
  // connections; SQLite takes them in turn).
  const [history, { updates, stateByCheck }, incidents, maintenance] = await Promise.all([
    deps.caches.dayHistory.read(db, seriesList, firstDay, today, nowMs),
    loadPageUpdates(db, page.uid, checks, nowMs),
    checkUids.length
      ? db
          .selectFrom('incidents')
          .select(['uid', 'title', 'status', 'created_at', 'resolved_at', 'updated_at'])
          .where('check_uid', 'in', checkUids)
          .where((eb) => eb.or([eb('status', '!=', 'resolved'), eb('resolved_at', '>=', since)]))
          .orderBy('created_at', 'desc')
          .limit(100)
          .execute()
      : [],
    loadPublicMaintenance(db, page.organization_uid, checks, nowMs),
  ]);
  const dates = Array.from({ length: DAYS }, (_, index) => new Date((firstDay + index) * DAY_MS).toISOString().slice(0, 10));

  const publicChecks: PublicCheck[] = checks.map((check) => {
    let runs = 0;
    let down = 0;
    const byDay = check.series == null ? undefined : history.get(Number(check.series));
    const days = Array.from({ length: DAYS }, (_, index) => {
      const day = firstDay + index;
      const counts = byDay?.get(day);
      runs += counts?.runs ?? 0;
      down += counts?.down ?? 0;
      return { date: dates[index], uptimePercent: counts ? percent(counts.runs, counts.down) : null };
    });
    const state: PublicCheckState = !check.enabled ? 'paused' : ((check.state as PublicCheckState | null) ?? 'pending');
    return { name: check.name, state, updateState: stateByCheck.get(check.uid) ?? null, uptime90d: percent(runs, down), days };
  });

  const changes = [
    page.updated_at,
    ...checks.map((check) => check.state_since ?? ''),
    ...incidents.map((incident) => incident.updated_at),
    ...updates.map((update) => update.updatedAt),
    ...maintenance.map((window) => window.updatedAt),
  ];
  return {
    title: page.title,
    description: page.description,
    state: pageState(publicChecks.map((check) => check.state)),
    checks: publicChecks,
    incidents: incidents.map((incident) => ({
      uid: incident.uid,
      title: incident.title,
      status: incident.status,
      openedAt: incident.created_at,
      resolvedAt: incident.resolved_at,
    })),
    updates,
    maintenance,
    updatedAt: changes.filter(Boolean).sort().at(-1)!,
  };
}
