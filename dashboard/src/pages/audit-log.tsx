import { AUDIT_KINDS } from '../../../contract/audit-kinds';
import { get } from '../api/client';
import type { AuditEntry, Page } from '../api/types';
import { ErrorBanner } from '../components/error-banner';
import { FieldShell } from '../components/fields';
import { formatDate } from '../lib/format';
import { navigate } from '../lib/router';
import { usePageTitle } from '../lib/title';
import { usePagedList } from '../lib/use-paged-list';

/** The organization's audit log, newest first, filtered by kind in the address (?kind=). */
export function AuditLogPage({ org, search }: { org: string; search: URLSearchParams }) {
  usePageTitle('Audit log');
  const kind = search.get('kind') ?? '';
  const path = `/orgs/${encodeURIComponent(org)}/audit-log`;
  const { first, items, nextCursor, loadMore, moreError } = usePagedList(
    (cursor) => get<Page<AuditEntry>>(path, { query: { kind: kind || undefined, limit: '50', cursor } }),
    [org, kind],
  );

  return (
    <main id="main">
      <h1 tabIndex={-1}>Audit log</h1>
      <div class="toolbar">
        <FieldShell id="audit-kind" label="Kind">
          <select
            id="audit-kind"
            value={kind}
            onChange={(e) => {
              const value = (e.currentTarget as HTMLSelectElement).value;
              navigate(`/orgs/${encodeURIComponent(org)}/audit-log${value ? `?kind=${encodeURIComponent(value)}` : ''}`);
            }}
          >
            <option value="">All kinds</option>
            {AUDIT_KINDS.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        </FieldShell>
      </div>
      <ErrorBanner error={first.error ?? moreError} />
      {first.data && items.length === 0 ? <p>No entries.</p> : null}
      {items.length ? (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Event</th>
                <th scope="col">By</th>
                <th scope="col">About</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {items.map((entry) => (
                <tr key={entry.uid} data-kind={entry.kind}>
                  <td>{formatDate(entry.createdAt)}</td>
                  <td>
                    <code>{entry.kind}</code>
                  </td>
                  <td>{entry.actor ? (entry.actor.email ?? entry.actor.uid) : 'system'}</td>
                  <td>{entry.target ? (entry.target.email ?? entry.target.uid) : '—'}</td>
                  <td class="mono">{Object.keys(entry.data).length ? JSON.stringify(entry.data) : ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {nextCursor ? (
        <button type="button" onClick={() => void loadMore()}>
          Load more
        </button>
      ) : null}
    </main>
  );
}
