import { get } from '../api/client';
import type { CheckState, Incident, MonitoredCheck, Page } from '../api/types';
import { ErrorBanner } from '../components/error-banner';
import { Link } from '../components/link';
import { StateBadge } from '../components/state-badge';
import { formatDate } from '../lib/format';
import { usePageTitle } from '../lib/title';
import { timeAgo } from '../lib/uptime-format';
import { useAsync } from '../lib/use-async';
import { usePolling } from '../lib/use-polling';

const COUNTED: CheckState[] = ['up', 'degraded', 'down', 'paused', 'pending'];
const RECENT_CHANGES = 10;

/** Every check of the organization, read in pages of the largest size the API allows. */
async function allChecks(org: string): Promise<MonitoredCheck[]> {
  const all: MonitoredCheck[] = [];
  let cursor: string | undefined;
  do {
    const page = await get<Page<MonitoredCheck>>(`/orgs/${encodeURIComponent(org)}/checks`, { query: { limit: '500', cursor } });
    all.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return all;
}

/** The landing page of an organization: checks per state, open incidents, the latest state changes. */
export function OverviewPage({ org }: { org: string }) {
  usePageTitle('Overview');
  const base = `/orgs/${encodeURIComponent(org)}`;
  const checks = useAsync(() => allChecks(org), [org]);
  const incidents = useAsync(
    async () => {
      const [open, acknowledged] = await Promise.all(
        (['open', 'acknowledged'] as const).map((status) => get<Page<Incident>>(`${base}/incidents`, { query: { status, limit: '50' } })),
      );
      return [...open.items, ...acknowledged.items];
    },
    [org],
  );
  usePolling(() => {
    checks.reload();
    incidents.reload();
  }, [checks.reload, incidents.reload]);

  const counts = new Map<CheckState, number>();
  for (const check of checks.data ?? []) counts.set(check.state, (counts.get(check.state) ?? 0) + 1);
  const recent = [...(checks.data ?? [])]
    .filter((check) => check.state !== 'pending')
    .sort((a, b) => Date.parse(b.stateSince) - Date.parse(a.stateSince))
    .slice(0, RECENT_CHANGES);

  return (
    <main id="main">
      <h1 tabIndex={-1}>Overview</h1>
      <ErrorBanner error={checks.error ?? incidents.error} />
      <h2>Checks</h2>
      {checks.data ? (
        <ul class="state-counts" aria-label="Checks per state">
          {COUNTED.map((state) => (
            <li key={state} class="card" data-count={state}>
              <Link href={`${base}/checks?state=${state}`}>
                <span class="count">{counts.get(state) ?? 0}</span> <StateBadge state={state} />
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
      <h2>Latest state changes</h2>
      {checks.data && recent.length === 0 ? <p>No check has a verdict yet.</p> : null}
      {recent.length ? (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Check</th>
                <th scope="col">Now</th>
                <th scope="col">Since</th>
              </tr>
            </thead>
            <tbody>
              {recent.map((check) => (
                <tr key={check.slug} data-slug={check.slug}>
                  <td>
                    <Link href={`${base}/checks/${encodeURIComponent(check.slug)}`}>{check.name}</Link>
                  </td>
                  <td>
                    <StateBadge state={check.state} />
                  </td>
                  <td title={formatDate(check.stateSince)}>{timeAgo(check.stateSince)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </main>
  );
}
