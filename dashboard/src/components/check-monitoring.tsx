import { useState } from 'preact/hooks';
import { get, post } from '../api/client';
import { asApiError, type ApiError } from '../api/errors';
import type { CheckResult, Incident, MonitoredCheck, Page, StateChange, Uptime } from '../api/types';
import { RESOLUTION_WORDS } from './incident-timeline';
import { formatDate, plural } from '../lib/format';
import { formatUptime, timeAgo } from '../lib/uptime-format';
import { useAsync } from '../lib/use-async';
import { useLiveList } from '../lib/use-live-list';
import { useLiveUpdates } from '../lib/use-live-updates';
import { LiveIndicator } from './live-indicator';
import { ErrorBanner } from './error-banner';
import { Link } from './link';
import { ResponseChart } from './response-chart';
import { StateBadge } from './state-badge';
import { UptimeBar } from './uptime-bar';
import { UPTIME_WINDOWS } from '../../../contract/states';

const WINDOWS = UPTIME_WINDOWS;
const RESULTS_PER_PAGE = 20;

const STATE_CHANGES_SHOWN = 50;
/** The response-time chart's results. */
const CHART_RESULTS = 500;

/**
 * What the engine knows of one check: state, run now, uptime per window, the 90-day bar, the
 * response-time chart, results with paging, the state history, incidents and (heartbeat) the ping
 * URL. Live events keep it current: each run joins the results and the chart in place, a state
 * change or an incident step of the check reads the rest again, and the uptimes are read again at
 * most once a minute while it runs.
 */
export function CheckMonitoring({ org, check, canRun, onRan }: { org: string; check: MonitoredCheck; canRun: boolean; onRan(): void }) {
  const path = `/orgs/${encodeURIComponent(org)}/checks/${encodeURIComponent(check.slug)}`;
  const uptimes = useAsync(
    () => Promise.all(WINDOWS.map((window) => get<Uptime>(`${path}/uptime`, { query: { window, ...(window === '90d' ? { bucket: 'day' } : {}) } }))),
    [path],
  );
  const recent = useAsync(() => get<Page<CheckResult>>(`${path}/results`, { query: { limit: String(CHART_RESULTS) } }), [path]);
  const results = useLiveList((cursor) => get<Page<CheckResult>>(`${path}/results`, { query: { limit: String(RESULTS_PER_PAGE), cursor } }), [path]);
  const incidents = useAsync(() => get<Page<Incident>>(`/orgs/${encodeURIComponent(org)}/incidents`, { query: { limit: '200' } }), [org]);
  const history = useAsync(
    () => get<Page<StateChange>>(`/orgs/${encodeURIComponent(org)}/state-changes`, { query: { check: check.slug, limit: String(STATE_CHANGES_SHOWN) } }),
    [org, check.slug],
  );
  const refreshAll = () => {
    uptimes.reload();
    recent.reload();
    history.reload();
    void results.refresh();
    incidents.reload();
  };
  const live = useLiveUpdates(org, {
    results: [check.slug],
    onEvent(event) {
      if (event.name !== 'check.result' || event.data.slug !== check.slug) return;
      const { slug: _slug, ...result } = event.data;
      const newer = (items: CheckResult[]) => !items[0] || items[0].at < result.at;
      results.update((items, page) => (page === 0 && newer(items) ? [result, ...items] : items));
      if (recent.data && newer(recent.data.items)) recent.setData({ ...recent.data, items: [result, ...recent.data.items].slice(0, CHART_RESULTS) });
    },
    stale: (event) =>
      (event.name === 'check.state' && event.data.slug === check.slug) ||
      (event.name.startsWith('incident.') && 'checkSlug' in event.data && event.data.checkSlug === check.slug)
        ? 'now'
        : undefined,
    refresh: refreshAll,
    error: uptimes.error ?? recent.error ?? history.error ?? results.error ?? incidents.error,
  });
  useLiveUpdates(org, { stale: (event) => (event.name === 'check.result' && event.data.slug === check.slug ? 'later' : undefined), refresh: uptimes.reload });
  const [running, setRunning] = useState(false);
  const [runError, setRunError] = useState<ApiError>();
  const [ran, setRan] = useState<CheckResult>();

  const runNow = async () => {
    setRunning(true);
    setRunError(undefined);
    try {
      setRan(await post<CheckResult>(`${path}/run`));
      onRan();
      refreshAll();
    } catch (caught) {
      setRunError(asApiError(caught));
    } finally {
      setRunning(false);
    }
  };

  const own = (incidents.data?.items ?? []).filter((incident) => incident.checkSlug === check.slug);
  const changes = history.data?.items ?? [];
  /** Why an incident opened: the result message of the state change that opened it (the oldest one naming it). */
  const openingMessage = (incidentUid: string): string | null =>
    changes.filter((change) => change.incidentUid === incidentUid && change.to !== 'up' && change.to !== 'paused').at(-1)?.message ?? null;
  const ninety = uptimes.data?.[3];
  return (
    <section class="monitoring" aria-label="Monitoring">
      <div class="page-head">
        <p class="lead">
          <StateBadge state={check.state} /> since {formatDate(check.stateSince)}; last run {timeAgo(check.lastResult?.at)}
          {check.lastResult ? ` (${check.lastResult.latencyMs} ms, ${check.lastResult.message})` : ''} <LiveIndicator status={live} />
        </p>
        {canRun ? (
          <button type="button" onClick={() => void runNow()} disabled={running}>
            {running ? 'Running…' : 'Run now'}
          </button>
        ) : null}
      </div>
      <ErrorBanner error={runError} title="Not run" />
      {ran ? (
        <p role="status" class="run-result">
          Ran at {formatDate(ran.at)}: {ran.status}, {ran.latencyMs} ms, {ran.message}
        </p>
      ) : null}
      {check.pingUrl ? <PingUrl url={check.pingUrl} /> : null}

      <h2>Uptime</h2>
      <ErrorBanner error={uptimes.error} />
      {uptimes.data ? (
        <dl class="uptime-windows">
          {uptimes.data.map((uptime) => (
            <div key={uptime.window} data-window={uptime.window}>
              <dt>{uptime.window.replace('h', ' h').replace('d', ' days')}</dt>
              <dd>
                {formatUptime(uptime.uptimePercent)}
                <span class="hint">
                  {' '}
                  {plural(uptime.runs, 'run')}
                  {uptime.latencyP95Ms !== null && check.type !== 'heartbeat' ? `, p95 ${uptime.latencyP95Ms} ms` : ''}
                </span>
              </dd>
            </div>
          ))}
        </dl>
      ) : null}
      {ninety ? <UptimeBar uptime={ninety} /> : null}

      <h2>Response time</h2>
      <ErrorBanner error={recent.error} />
      {recent.data ? <ResponseChart results={recent.data.items} /> : null}

      <h2>Results</h2>
      <ErrorBanner error={results.error} />
      {results.items.length ? (
        <div class="table-wrap">
          <table class="results">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Status</th>
                <th scope="col">Response</th>
                <th scope="col">Message</th>
              </tr>
            </thead>
            <tbody>
              {results.items.map((result) => (
                <tr key={result.at + result.status} data-status={result.status}>
                  <td>{formatDate(result.at)}</td>
                  <td>
                    <StateBadge state={result.status} />
                  </td>
                  <td class="num">{result.latencyMs} ms</td>
                  <td class="mono">{result.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : !results.loading ? (
        <p>No results yet.</p>
      ) : null}
      {results.nextCursor ? (
        <button type="button" onClick={() => void results.loadMore()}>
          Older results
        </button>
      ) : null}

      <h2>State history</h2>
      <ErrorBanner error={history.error} />
      {changes.length ? (
        <ol class="plain-list timeline" aria-label="State changes, newest first">
          {changes.map((change) => (
            <li key={change.uid} data-to={change.to}>
              {formatDate(change.at)}: <StateBadge state={change.from} /> <span aria-hidden="true">→</span>
              <span class="visually-hidden">to</span> <StateBadge state={change.to} />
              {change.message ? <span class="hint"> {change.message}</span> : null}
            </li>
          ))}
        </ol>
      ) : history.data ? (
        <p>No state change yet.</p>
      ) : null}
      {history.data?.nextCursor ? <p class="hint">The latest {STATE_CHANGES_SHOWN} changes are shown.</p> : null}

      <h2>Incidents of this check</h2>
      <ErrorBanner error={incidents.error} />
      {own.length ? (
        <ul class="plain-list">
          {own.map((incident) => (
            <li key={incident.uid} data-incident={incident.uid}>
              <Link href={`/orgs/${encodeURIComponent(org)}/incidents?status=${incident.status}`}>{incident.title}</Link>{' '}
              <span class="badge">{incident.status}</span> opened {formatDate(incident.createdAt)}
              {openingMessage(incident.uid) ? <span class="opening-message">: {openingMessage(incident.uid)}</span> : null}
              {incident.resolvedAt ? `; resolved ${formatDate(incident.resolvedAt)}` : ''}
              {incident.resolution ? <span class="resolution">: {RESOLUTION_WORDS[incident.resolution]}</span> : null}
              {incident.resolution === 'check-paused' || incident.resolution === 'check-deleted' ? (
                <span class="badge" data-mark={incident.resolution}>
                  {incident.resolution === 'check-paused' ? 'paused' : 'deleted'}
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p>No incidents.</p>
      )}
    </section>
  );
}

/** The ping URL of a heartbeat check, with a copy button and a curl line to paste into a job. */
function PingUrl({ url }: { url: string }) {
  const [copied, setCopied] = useState<string>();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied('Copied.');
    } catch {
      setCopied('Copying was refused; select the address and copy it.');
    }
  };
  return (
    <div class="card ping-url">
      <h2>Ping URL</h2>
      <p>
        <code class="breakable" data-ping-url>
          {url}
        </code>{' '}
        <button type="button" onClick={() => void copy()}>
          Copy
        </button>{' '}
        <span role="status">{copied}</span>
      </p>
      <p>At the end of the job:</p>
      <pre class="mono">{`curl -fsS -m 10 --retry 3 ${url}`}</pre>
      <p>To report a failure:</p>
      <pre class="mono">{`curl -fsS -m 10 --retry 3 ${url}/fail`}</pre>
    </div>
  );
}
