import { useState } from 'preact/hooks';
import { get, post } from '../api/client';
import { asApiError, type ApiError } from '../api/errors';
import type { Incident, Page, Role } from '../api/types';
import { ErrorBanner } from '../components/error-banner';
import { FieldShell, issuesByPath, TextField } from '../components/fields';
import { IncidentTimeline } from '../components/incident-timeline';
import { Link } from '../components/link';
import { navigate } from '../lib/router';
import { canWrite } from '../lib/roles';
import { usePageTitle } from '../lib/title';
import { useAsync } from '../lib/use-async';
import { useLiveUpdates } from '../lib/use-live-updates';
import { LiveIndicator } from '../components/live-indicator';
import { INCIDENT_STATUSES } from '../../../contract/states';

const STATUSES = INCIDENT_STATUSES;

/**
 * Incidents, newest first, by status (?status=); users and up open, acknowledge and resolve them.
 * Read again when an incident opens or moves on (live events), or every few seconds while they are away.
 */
export function IncidentsPage({ org, role, search }: { org: string; role?: Role; search: URLSearchParams }) {
  usePageTitle('Incidents');
  const status = search.get('status') ?? '';
  const path = `/orgs/${encodeURIComponent(org)}/incidents`;
  const list = useAsync(() => get<Page<Incident>>(path, { query: { status: status || undefined, limit: '50' } }), [org, status]);
  const live = useLiveUpdates(org, { stale: (event) => (event.name.startsWith('incident.') ? 'now' : undefined), refresh: list.reload, error: list.error });
  const [error, setError] = useState<ApiError>();
  const writer = canWrite(role);

  const act = async (incident: Incident, action: 'acknowledge' | 'resolve') => {
    setError(undefined);
    try {
      await post(`${path}/${encodeURIComponent(incident.uid)}/${action}`);
    } catch (caught) {
      setError(asApiError(caught));
    }
    list.reload();
  };

  return (
    <main id="main">
      <div class="page-head">
        <h1 tabIndex={-1}>Incidents</h1>
        <LiveIndicator status={live} />
      </div>
      <div class="toolbar">
        <FieldShell id="incident-status" label="Status">
          <select
            id="incident-status"
            value={status}
            onChange={(e) => {
              const value = (e.currentTarget as HTMLSelectElement).value;
              navigate(`${path}${value ? `?status=${value}` : ''}`);
            }}
          >
            <option value="">All</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </FieldShell>
      </div>
      {writer ? <OpenIncidentForm org={org} onOpened={list.reload} /> : null}
      <ErrorBanner error={list.error ?? error} />
      {list.data && list.data.items.length === 0 ? <p>No incidents.</p> : null}
      {list.data?.items.length ? (
        <ul class="plain-list">
          {list.data.items.map((incident) => (
            <li key={incident.uid} class="card" data-incident={incident.title} data-status={incident.status}>
              <p>
                <strong>{incident.title}</strong> <span class="badge">{incident.status}</span>
                {incident.checkSlug ? (
                  <>
                    {' '}
                    about <Link href={`/orgs/${encodeURIComponent(org)}/checks/${encodeURIComponent(incident.checkSlug)}`}>{incident.checkSlug}</Link>
                  </>
                ) : null}
              </p>
              {incident.openingMessage ? (
                <p class="hint" data-opening-message>
                  Opened by: {incident.openingMessage}
                </p>
              ) : null}
              <IncidentTimeline incident={incident} />
              {writer && incident.status !== 'resolved' ? (
                <div class="button-row">
                  {incident.status === 'open' ? (
                    <button type="button" onClick={() => void act(incident, 'acknowledge')}>
                      Acknowledge
                    </button>
                  ) : null}
                  <button type="button" onClick={() => void act(incident, 'resolve')}>
                    Resolve
                  </button>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </main>
  );
}

function OpenIncidentForm({ org, onOpened }: { org: string; onOpened(): void }) {
  const [title, setTitle] = useState('');
  const [checkSlug, setCheckSlug] = useState('');
  const [error, setError] = useState<ApiError>();
  const issues = issuesByPath(error?.issues ?? []);
  const submit = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    try {
      await post(`/orgs/${encodeURIComponent(org)}/incidents`, { title, ...(checkSlug.trim() ? { checkSlug: checkSlug.trim() } : {}) });
      setTitle('');
      setCheckSlug('');
      onOpened();
    } catch (caught) {
      setError(asApiError(caught));
    }
  };
  return (
    <details class="card">
      <summary>Open an incident</summary>
      <form onSubmit={submit}>
        <ErrorBanner error={error} title="Not opened" />
        <TextField id="incident-title" label="Title" required value={title} onValue={setTitle} errors={issues.get('title')} />
        <TextField id="incident-check" label="Check slug (optional)" value={checkSlug} onValue={setCheckSlug} errors={issues.get('checkSlug')} />
        <button type="submit" class="primary">
          Open incident
        </button>
      </form>
    </details>
  );
}
