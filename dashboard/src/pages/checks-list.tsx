import { useState } from 'preact/hooks';
import { get } from '../api/client';
import type { Check, CheckType, Page, Role } from '../api/types';
import { ErrorBanner } from '../components/error-banner';
import { FieldShell, TextField } from '../components/fields';
import { Link } from '../components/link';
import { navigate } from '../lib/router';
import { canWrite } from '../lib/roles';
import { usePageTitle } from '../lib/title';
import { useAsync } from '../lib/use-async';
import { usePagedList } from '../lib/use-paged-list';

/** Filters live in the address (?type=&label=k=v), so a filtered list can be linked and reloaded. */
export function ChecksListPage({ org, role, search }: { org: string; role?: Role; search: URLSearchParams }) {
  usePageTitle('Checks');
  const base = `/orgs/${encodeURIComponent(org)}/checks`;
  const type = search.get('type') ?? '';
  const labels = search.getAll('label');
  const types = useAsync(() => get<CheckType[]>('/check-types'), []);
  const { first, items, nextCursor, loadMore, moreError } = usePagedList(
    (cursor) => get<Page<Check>>(`/orgs/${encodeURIComponent(org)}/checks`, { query: { type: type || undefined, label: labels, limit: '50', cursor } }),
    [org, type, labels.join('\n')],
  );
  const [typeInput, setTypeInput] = useState(type);
  const [labelInput, setLabelInput] = useState(labels.join(', '));

  const applyFilters = (event: Event) => {
    event.preventDefault();
    const params = new URLSearchParams();
    if (typeInput) params.set('type', typeInput);
    for (const label of labelInput.split(',').map((l) => l.trim()).filter(Boolean)) params.append('label', label);
    const qs = params.toString();
    navigate(`${base}${qs ? `?${qs}` : ''}`);
  };

  const titleOf = (name: string) => types.data?.find((t) => t.type === name)?.title ?? name;

  return (
    <main id="main">
      <div class="page-head">
        <h1 tabIndex={-1}>Checks</h1>
        {canWrite(role) ? (
          <div class="button-row">
            <Link class="button primary" href={`${base}/-/new`}>
              New check
            </Link>
            <Link class="button" href={`${base}/-/import`}>
              Import
            </Link>
          </div>
        ) : null}
      </div>
      <form class="toolbar" onSubmit={applyFilters} aria-label="Filter checks">
        <FieldShell id="filter-type" label="Type">
          <select id="filter-type" value={typeInput} onChange={(e) => setTypeInput((e.currentTarget as HTMLSelectElement).value)}>
            <option value="">All types</option>
            {(types.data ?? []).map((t) => (
              <option key={t.type} value={t.type}>
                {t.title}
              </option>
            ))}
          </select>
        </FieldShell>
        <TextField id="filter-label" label="Labels" placeholder="team=platform, env=prod" value={labelInput} onValue={setLabelInput} />
        <button type="submit">Filter</button>
        {type || labels.length ? (
          <Link
            href={base}
            onClick={() => {
              setTypeInput('');
              setLabelInput('');
            }}
          >
            Clear filters
          </Link>
        ) : null}
      </form>
      <ErrorBanner error={first.error ?? moreError} />
      {first.loading && !first.data ? <p aria-busy="true">Loading…</p> : null}
      {first.data && items.length === 0 ? <p>{type || labels.length ? 'No check matches these filters.' : 'No checks yet.'}</p> : null}
      {items.length ? (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Checks of {org}</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Target</th>
                <th scope="col">Every</th>
                <th scope="col">Labels</th>
              </tr>
            </thead>
            <tbody>
              {items.map((check) => (
                <tr key={check.slug} data-slug={check.slug}>
                  <td>
                    <Link href={`${base}/${encodeURIComponent(check.slug)}`}>{check.name}</Link>
                    {check.enabled ? null : <span class="badge">paused</span>}
                  </td>
                  <td>{titleOf(check.type)}</td>
                  <td class="mono">{check.target}</td>
                  <td>{check.intervalSeconds} s</td>
                  <td>
                    {Object.entries(check.labels).map(([k, v]) => (
                      <span class="badge" key={k}>
                        {k}={v}
                      </span>
                    ))}
                  </td>
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
