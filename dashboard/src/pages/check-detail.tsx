import { Breakable } from '../components/breakable';
import { del, get, patch } from '../api/client';
import type { MonitoredCheck, Role } from '../api/types';
import { CheckChannels } from '../components/check-channels';
import { CheckMaintenance } from '../components/check-maintenance';
import { CheckMonitoring } from '../components/check-monitoring';
import { ErrorBanner } from '../components/error-banner';
import { Link } from '../components/link';
import { formatDate, plural } from '../lib/format';
import { navigate } from '../lib/router';
import { canWrite } from '../lib/roles';
import { usePageTitle } from '../lib/title';
import { useAction } from '../lib/use-action';
import { useAsync } from '../lib/use-async';
import { useLiveUpdates } from '../lib/use-live-updates';

/** One check: its state, uptime, results and incidents, then its whole definition; edit and delete for those who may write. */
export function CheckDetailPage({ org, slug, role }: { org: string; slug: string; role?: Role }) {
  const base = `/orgs/${encodeURIComponent(org)}/checks`;
  const check = useAsync(() => get<MonitoredCheck>(`${base}/${encodeURIComponent(slug)}`), [org, slug]);
  usePageTitle(check.data?.name ?? slug);
  useLiveUpdates(org, {
    results: [slug],
    onEvent(event) {
      const c = check.data;
      if (event.name !== 'check.result' || event.data.slug !== slug || !c) return;
      const { slug: _slug, ...result } = event.data;
      if (!c.lastResult || c.lastResult.at < result.at) check.setData({ ...c, lastResult: result });
    },
    stale: (event) => (event.name === 'check.state' && event.data.slug === slug ? 'now' : undefined),
    refresh: check.reload,
    error: check.error,
  });
  const { busy, error, run } = useAction();

  /** Pauses (enabled false) or resumes (enabled true) the check; pausing resolves its open incident. */
  const setEnabled = async (enabled: boolean) => {
    await run(async () => {
      await patch(`${base}/${encodeURIComponent(slug)}`, { enabled });
      check.reload();
    });
  };

  const remove = async () => {
    if (!window.confirm(`Delete the check "${check.data?.name ?? slug}"? This cannot be undone.`)) return;
    await run(
      async () => {
        await del(`${base}/${encodeURIComponent(slug)}`);
        navigate(base, { replace: true });
      },
      { keepBusy: true },
    );
  };

  if (check.error) {
    return (
      <main id="main">
        <h1 tabIndex={-1}>Check {slug}</h1>
        <ErrorBanner error={check.error} />
        <Link href={base}>Back to checks</Link>
      </main>
    );
  }
  const c = check.data;
  if (!c) {
    return (
      <main id="main" aria-busy="true">
        <h1 tabIndex={-1}>Check {slug}</h1>
        <p>Loading…</p>
      </main>
    );
  }
  return (
    <main id="main">
      <p>
        <Link href={base}>← Checks</Link>
      </p>
      <div class="page-head">
        <h1 tabIndex={-1}>{c.name}</h1>
        {canWrite(role) ? (
          <div class="button-row">
            {c.enabled ? (
              <button type="button" onClick={() => void setEnabled(false)} disabled={busy}>
                Pause
              </button>
            ) : (
              <button type="button" class="primary" onClick={() => void setEnabled(true)} disabled={busy}>
                Resume
              </button>
            )}
            <Link class="button" href={`${base}/${encodeURIComponent(c.slug)}/edit`}>
              Edit
            </Link>
            <button type="button" class="danger" onClick={() => void remove()} disabled={busy}>
              Delete
            </button>
          </div>
        ) : null}
      </div>
      <ErrorBanner error={error} title="Not changed" />
      {c.description ? <p class="lead">{c.description}</p> : null}
      <CheckMonitoring org={org} check={c} canRun={canWrite(role)} onRan={check.reload} />
      <CheckMaintenance org={org} slug={c.slug} />
      <h2>Definition</h2>
      <table class="kv">
        <tbody>
          <Row k="Slug" v={<code>{c.slug}</code>} />
          <Row k="Type" v={c.type} />
          <Row
            k="Target"
            v={
              <code>
                <Breakable text={c.target} />
              </code>
            }
          />
          <Row k="Enabled" v={c.enabled ? 'yes' : 'no (paused)'} />
          <Row k="Interval" v={`${c.intervalSeconds} seconds`} />
          <Row k="Timeout" v={`${c.thresholds.timeoutMs} ms`} />
          {c.thresholds.degradedResponseMs !== undefined ? <Row k="Degraded above" v={`${c.thresholds.degradedResponseMs} ms`} /> : null}
          <Row k="Down after" v={plural(c.thresholds.failuresBeforeDown, 'failure')} />
          <Row k="Up after" v={plural(c.thresholds.successesBeforeUp, 'success', 'successes')} />
          <Row
            k="Labels"
            v={
              Object.keys(c.labels).length
                ? Object.entries(c.labels).map(([k, v]) => (
                    <span class="badge" key={k}>
                      {k}={v}
                    </span>
                  ))
                : 'none'
            }
          />
          <Row k="Created" v={formatDate(c.createdAt)} />
          <Row k="Updated" v={formatDate(c.updatedAt)} />
        </tbody>
      </table>
      <h2>Settings of the {c.type} check</h2>
      {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: the label names the settings block for screen readers and tests */}
      <pre class="card mono" aria-label="Type-specific settings as JSON">
        {JSON.stringify(c.config, null, 2)}
      </pre>
      <CheckChannels org={org} slug={c.slug} writer={canWrite(role)} />
    </main>
  );
}

function Row({ k, v }: { k: string; v: preact.ComponentChildren }) {
  return (
    <tr>
      <th scope="row">{k}</th>
      <td>{v}</td>
    </tr>
  );
}
