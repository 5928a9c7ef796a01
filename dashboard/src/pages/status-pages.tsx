import { get } from '../api/client';
import type { Page, Role } from '../api/types';
import { ErrorBanner } from '../components/error-banner';
import { Link } from '../components/link';
import { formatDate } from '../lib/format';
import { canWrite } from '../lib/roles';
import { usePageTitle } from '../lib/title';
import { useAsync } from '../lib/use-async';
import { publicPageUrl, statusPagesPath, type StatusPage } from './status-page-api';

/** The organization's status pages: which are public, where, and how many checks each shows. */
export function StatusPagesPage({ org, role }: { org: string; role?: Role }) {
  usePageTitle('Status pages');
  const list = useAsync(() => get<Page<StatusPage>>(`${statusPagesPath(org)}?limit=200`), [org]);
  const base = `/orgs/${encodeURIComponent(org)}/status-pages`;
  return (
    <main id="main">
      <div class="page-head">
        <h1 tabIndex={-1}>Status pages</h1>
        {canWrite(role) ? (
          <Link class="button primary" href={`${base}/-/new`}>
            New status page
          </Link>
        ) : null}
      </div>
      <p>
        A status page shows the state and the 90-day uptime of the checks you pick, by name only (never their targets or settings), and the recent incidents. A
        public page is open to anyone at its address; a private one only to members, as a preview.
      </p>
      <ErrorBanner error={list.error} />
      {list.data?.items.length ? (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Title</th>
                <th scope="col">Visibility</th>
                <th scope="col">Checks</th>
                <th scope="col">Updated</th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((page) => (
                <tr key={page.slug}>
                  <td>
                    <Link href={`${base}/${encodeURIComponent(page.slug)}`}>{page.title}</Link>
                  </td>
                  <td>
                    {page.public ? (
                      <>
                        Public: <a href={publicPageUrl(org, page.slug)}>{`/status/${org}/${page.slug}`}</a>
                      </>
                    ) : (
                      'Private'
                    )}
                  </td>
                  <td>{page.checks.length}</td>
                  <td>{formatDate(page.updatedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : list.data ? (
        <p>No status pages yet.</p>
      ) : (
        <p aria-busy="true">Loading…</p>
      )}
    </main>
  );
}
