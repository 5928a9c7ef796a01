import { Breakable } from '../components/breakable';
import { useState } from 'preact/hooks';
import { get } from '../api/client';
import type { CheckState, CheckType, MonitoredCheck, Page, Role } from '../api/types';
import { ErrorBanner } from '../components/error-banner';
import { FieldShell, TextField } from '../components/fields';
import { Link } from '../components/link';
import { navigate } from '../lib/router';
import { canWrite } from '../lib/roles';
import { usePageTitle } from '../lib/title';
import { useAsync } from '../lib/use-async';
import { useLiveList } from '../lib/use-live-list';
import { useLiveUpdates } from '../lib/use-live-updates';
import { LiveIndicator } from '../components/live-indicator';
import { StateBadge } from '../components/state-badge';
import { Sparkline } from '../components/sparkline';
import { formatUptime, timeAgo } from '../lib/uptime-format';

const STATES: CheckState[] = ['up', 'degraded', 'down', 'maintenance', 'pending', 'paused'];
/** The list's orders; `attention` (down, degraded, pending, up, paused) is the default and stays out of the address. */
const ORDERS = [
  { value: 'attention', label: 'Needs attention first' },
  { value: 'name', label: 'Name' },
] as const;

/** How many response times a row's sparkline shows (the API's `recentLatencies`). */
const SPARKLINE_POINTS = 20;

/**
 * Checks with their state, 24-hour uptime, last response time and last run, what needs attention
 * first unless `?order=name`. Live events keep it current: each run of a listed check moves its
 * row in place, a state change anywhere reads the loaded pages again (the filter and the order
 * may change), and uptimes are read again at most once a minute. Filters and the order live in the
 * address (?state=&type=&label=k=v&order=), so a filtered list can be linked and reloaded.
 */
export function ChecksListPage({ org, role, search }: { org: string; role?: Role; search: URLSearchParams }) {
  usePageTitle('Checks');
  const base = `/orgs/${encodeURIComponent(org)}/checks`;
  const state = search.get('state') ?? '';
  const type = search.get('type') ?? '';
  const labels = search.getAll('label');
  const order = search.get('order') === 'name' ? 'name' : 'attention';
  const types = useAsync(() => get<CheckType[]>('/check-types'), []);
  const { items, loading, error, nextCursor, loadMore, refresh, update } = useLiveList(
    (cursor) =>
      get<Page<MonitoredCheck>>(`/orgs/${encodeURIComponent(org)}/checks`, {
        query: { state: state || undefined, type: type || undefined, label: labels, include: 'uptime24h,latencies', order, limit: '50', cursor },
      }),
    [org, state, type, order, labels.join('\n')],
  );
  const live = useLiveUpdates(org, {
    results: items.map((check) => check.slug),
    onEvent(event) {
      if (event.name !== 'check.result') return;
      const { slug, ...result } = event.data;
      update((checks) =>
        checks.map((check) =>
          check.slug === slug && (!check.lastResult || check.lastResult.at < result.at)
            ? { ...check, lastResult: result, recentLatencies: [...(check.recentLatencies ?? []), result.latencyMs].slice(-SPARKLINE_POINTS) }
            : check,
        ),
      );
    },
    stale: (event) => (event.name === 'check.state' ? 'now' : event.name === 'check.result' ? 'later' : undefined),
    refresh: () => void refresh(),
    error,
  });
  const [stateInput, setStateInput] = useState(state);
  const [typeInput, setTypeInput] = useState(type);
  const [labelInput, setLabelInput] = useState(labels.join(', '));
  const [orderInput, setOrderInput] = useState<string>(order);

  const applyFilters = (event: Event) => {
    event.preventDefault();
    const params = new URLSearchParams();
    if (stateInput) params.set('state', stateInput);
    if (typeInput) params.set('type', typeInput);
    for (const label of labelInput
      .split(',')
      .map((l) => l.trim())
      .filter(Boolean))
      params.append('label', label);
    if (orderInput !== 'attention') params.set('order', orderInput);
    const qs = params.toString();
    navigate(`${base}${qs ? `?${qs}` : ''}`);
  };

  const titleOf = (name: string) => types.data?.find((t) => t.type === name)?.title ?? name;

  return (
    <main id="main" class="full-width">
      <div class="page-head">
        <h1 tabIndex={-1}>Checks</h1>
        <LiveIndicator status={live} />
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
        <FieldShell id="filter-state" label="State">
          <select id="filter-state" value={stateInput} onChange={(e) => setStateInput((e.currentTarget as HTMLSelectElement).value)}>
            <option value="">All states</option>
            {STATES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </FieldShell>
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
        <FieldShell id="list-order" label="Order">
          <select id="list-order" value={orderInput} onChange={(e) => setOrderInput((e.currentTarget as HTMLSelectElement).value)}>
            {ORDERS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </FieldShell>
        <button type="submit">Filter</button>
        {state || type || labels.length || order !== 'attention' ? (
          <Link
            href={base}
            onClick={() => {
              setStateInput('');
              setTypeInput('');
              setLabelInput('');
              setOrderInput('attention');
            }}
          >
            Clear filters
          </Link>
        ) : null}
      </form>
      <ErrorBanner error={error} />
      {loading && items.length === 0 ? <p aria-busy="true">Loading…</p> : null}
      {!loading && items.length === 0 ? <p>{state || type || labels.length ? 'No check matches these filters.' : 'No checks yet.'}</p> : null}
      {items.length ? (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Checks of {org}</caption>
            <thead>
              <tr>
                <th scope="col">State</th>
                <th scope="col">Name</th>
                <th scope="col">Uptime 24 h</th>
                <th scope="col">Response</th>
                <th scope="col">Last run</th>
                <th scope="col" class="wide-only">
                  Type
                </th>
                <th scope="col" class="wide-only">
                  Target
                </th>
                <th scope="col" class="wide-only">
                  Labels
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((check) => (
                <tr key={check.slug} data-slug={check.slug} data-state={check.state}>
                  <td>
                    <StateBadge state={check.state} />
                  </td>
                  <td>
                    <Link href={`${base}/${encodeURIComponent(check.slug)}`}>{check.name}</Link>
                  </td>
                  <td class="num">{formatUptime(check.uptime24h)}</td>
                  <td class="num">
                    {check.lastResult ? `${check.lastResult.latencyMs} ms` : '—'} <Sparkline values={check.recentLatencies ?? []} />
                  </td>
                  <td title={check.lastResult?.at}>{timeAgo(check.lastResult?.at)}</td>
                  <td class="wide-only">{titleOf(check.type)}</td>
                  <td class="mono wide-only target-cell">
                    <Breakable text={check.target} />
                  </td>
                  <td class="wide-only label-cell">
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
