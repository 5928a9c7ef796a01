import { get } from '../api/client';
import type { CheckState, CheckStateCounts, Incident, List, MaintenanceWindow, Page, StateChange } from '../api/types';
import { ErrorBanner } from '../components/error-banner';
import { Link } from '../components/link';
import { MaintenanceList } from '../components/maintenance-list';
import { StateBadge } from '../components/state-badge';
import { formatDate } from '../lib/format';
import { usePageTitle } from '../lib/title';
import { timeAgo } from '../lib/uptime-format';
import { useAsync } from '../lib/use-async';
import { useLiveUpdates } from '../lib/use-live-updates';
import { LiveIndicator } from '../components/live-indicator';

const COUNTED: CheckState[] = ['up', 'degraded', 'down', 'maintenance', 'paused', 'pending'];
const RECENT_CHANGES = 10;

/**
 * The landing page of an organization: checks per state (counted by the server, whatever their
 * number), open incidents, the latest state changes; read again when a check changes state or an
 * incident moves on (live events), or every few seconds while they are away.
 */
export function OverviewPage({ org }: { org: string }) {
  usePageTitle('Overview');
  const base = `/orgs/${encodeURIComponent(org)}`;
  const states = useAsync(() => get<CheckStateCounts>(`${base}/check-states`), [org]);
  const changes = useAsync(() => get<Page<StateChange>>(`${base}/state-changes`, { query: { limit: String(RECENT_CHANGES) } }), [org]);
  const incidents = useAsync(async () => {
    const [open, acknowledged] = await Promise.all(
      (['open', 'acknowledged'] as const).map((status) => get<Page<Incident>>(`${base}/incidents`, { query: { status, limit: '50' } })),
    );
    return [...open.items, ...acknowledged.items];
  }, [org]);
  const maintenance = useAsync(() => get<List<MaintenanceWindow>>(`${base}/maintenance-windows`, { query: { upcoming: 'true' } }), [org]);
  const live = useLiveUpdates(org, {
    stale: (event) => (event.name === 'check.result' ? undefined : 'now'),
    refresh() {
      maintenance.reload();
      states.reload();
      changes.reload();
      incidents.reload();
    },
    error: states.error ?? changes.error ?? incidents.error ?? maintenance.error,
  });
  const counts = states.data?.counts;
  const recent = changes.data?.items ?? [];

  return (
    <main id="main">
      <div class="page-head">
        <h1 tabIndex={-1}>Overview</h1>
        <LiveIndicator status={live} />
      </div>
      <ErrorBanner error={states.error ?? changes.error ?? incidents.error ?? maintenance.error} />
      <h2>Checks</h2>
      {counts ? (
        <ul class="state-counts" aria-label="Checks per state">
          {COUNTED.map((state) => (
            <li key={state} class="card" data-count={state}>
              <Link href={`${base}/checks?state=${state}`}>
                <span class="count">{counts[state]}</span> <StateBadge state={state} />
              </Link>
            </li>
          ))}
        </ul>
      ) : (
        <p aria-busy="true">Loading…</p>
      )}
      <h2>Open incidents</h2>
      {incidents.data && incidents.data.length === 0 ? <p>No open incident.</p> : null}
      {incidents.data?.length ? (
        <ul class="plain-list">
          {incidents.data.map((incident) => (
            <li key={incident.uid} data-incident={incident.title}>
              <Link href={`${base}/incidents?status=${incident.status}`}>{incident.title}</Link> <span class="badge">{incident.status}</span> since{' '}
              {formatDate(incident.createdAt)}
            </li>
          ))}
        </ul>
      ) : null}
      <h2>Maintenance</h2>
      {maintenance.data ? <MaintenanceList windows={maintenance.data.items.slice(0, 5)} empty="No maintenance under way or scheduled." /> : null}
      <p>
        <Link href={`${base}/maintenance`}>All maintenance windows</Link>
      </p>
      <h2>Latest state changes</h2>
      {changes.data && recent.length === 0 ? <p>No check has changed state yet.</p> : null}
      {recent.length ? (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Check</th>
                <th scope="col">Change</th>
                <th scope="col">When</th>
              </tr>
            </thead>
            <tbody>
              {recent.map((change) => (
                <tr key={change.uid} data-slug={change.checkSlug} data-to={change.to}>
                  <td>
                    <Link href={`${base}/checks/${encodeURIComponent(change.checkSlug)}`}>{change.checkSlug}</Link>
                  </td>
                  <td>
                    <StateBadge state={change.from} /> <span aria-hidden="true">→</span>
                    <span class="visually-hidden">to</span> <StateBadge state={change.to} />
                    {change.message ? <p class="hint">{change.message}</p> : null}
                  </td>
                  <td title={formatDate(change.at)}>{timeAgo(change.at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </main>
  );
}
