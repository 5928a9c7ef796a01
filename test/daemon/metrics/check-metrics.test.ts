import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../daemon/clock.js';
import type { Runner } from '../../../daemon/runner/runner.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { hasTool } from '../../support/required-tool.js';
import { testRunner } from '../../support/runner.js';

const PROMTOOL = '/usr/bin/promtool';
const promtool = hasTool(PROMTOOL, 'prometheus', 'checking the metrics scrapes with promtool check metrics');

/** promtool's verdict on a scrape: its problems, or an empty string. */
function promtoolProblems(text: string): string {
  const run = spawnSync(PROMTOOL, ['check', 'metrics'], { input: text, encoding: 'utf8' });
  return run.status === 0 ? '' : `${run.stdout}${run.stderr}`;
}

// Check health as Prometheus series, on the operator's metrics address and for one organization
// through the API with a metrics:read token.
describe.each(DATABASE_KINDS)('check metrics [%s]', (kind) => {
  const clock = manualClock(new Date('2026-03-01T10:00:00Z'));
  let daemon: TestDaemon;
  let admin: string;
  let runner: Runner;
  let target: Server;
  const scrape = async () => (await fetch(daemon.metricsUrl!)).text();

  beforeAll(async () => {
    target = createServer((req, res) => res.writeHead(req.url === '/down' ? 503 : 200).end());
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    daemon = await startTestDaemon(kind, { clock, env: { SVC_METRICS_LISTEN: '127.0.0.1:0' } });
    admin = await daemon.adminToken();
    runner = testRunner(daemon, clock);
    const thresholds = { failuresBeforeDown: 1, successesBeforeUp: 1, timeoutMs: 2000 };
    for (const [name, path, enabled] of [
      ['Shop', '/up', true],
      ['Blog', '/down', true],
      ['Old', '/up', false],
    ] as const) {
      const made = await daemon.request('POST', '/orgs/default/checks', {
        token: admin,
        body: { name, type: 'http', intervalSeconds: 30, target: `${base}${path}`, thresholds, enabled },
      });
      expect(made.status).toBe(201);
    }
    expect((await daemon.request('POST', '/orgs', { token: admin, body: { slug: 'other', name: 'Other' } })).status).toBe(201);
    expect(
      (
        await daemon.request('POST', '/orgs/other/checks', {
          token: admin,
          body: { name: 'Elsewhere', type: 'http', intervalSeconds: 30, target: `${base}/up`, thresholds },
        })
      ).status,
    ).toBe(201);
    for (let i = 0; i < 2; i++) {
      clock.advance(30_000);
      await runner.tick();
    }
  });
  afterAll(async () => {
    await daemon.stop();
    await new Promise<void>((resolve) => target.close(() => resolve()));
  });

  it('gives each check its up, state, latency and runs, and each organization its open incidents', async () => {
    const text = await scrape();
    expect(text).toContain('svc_check_up{org="default",check="shop",type="http"} 1');
    expect(text).toContain('svc_check_up{org="default",check="blog",type="http"} 0');
    expect(text).not.toMatch(/svc_check_up\{org="default",check="old"/);
    expect(text).toContain('svc_check_state{org="default",check="old",state="paused"} 1');
    expect(text).toContain('svc_check_state{org="default",check="blog",state="down"} 1');
    expect(text).toMatch(/svc_check_latency_seconds\{org="default",check="shop"\} \d/);
    expect(text).toContain('svc_check_runs_total{org="default",check="shop",status="up"} 2');
    expect(text).toContain('svc_check_runs_total{org="default",check="blog",status="down"} 2');
    expect(text).toContain('svc_incidents_open{org="default"} 1');
    expect(text).toContain('svc_check_series_dropped 0');
    expect(text).toContain('svc_check_up{org="other",check="elsewhere",type="http"} 1');
  });

  it.runIf(promtool)('passes promtool check metrics on both endpoints', async () => {
    expect(promtoolProblems(await scrape())).toBe('');
    const tenant = await daemon.request('GET', '/orgs/default/metrics', { token: admin });
    expect(tenant.status).toBe(200);
    expect(promtoolProblems(tenant.body as string)).toBe('');
  });

  it('answers an organization its own series to a metrics:read token, which reaches nothing else', async () => {
    const minted = await daemon.request('POST', '/auth/tokens', { token: admin, body: { name: 'prometheus', org: 'default', scopes: ['metrics:read'] } });
    expect(minted.status).toBe(201);
    const token = minted.body.token as string;
    const own = await daemon.request('GET', '/orgs/default/metrics', { token });
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toContain('text/plain');
    expect(own.body).toContain('svc_check_up{org="default",check="shop",type="http"} 1');
    expect(own.body).not.toContain('org="other"');
    expect((await daemon.request('GET', '/orgs/default/checks', { token })).status).toBe(403);
    expect((await daemon.request('GET', '/orgs/other/metrics', { token })).status).toBe(403);
    expect((await daemon.request('GET', '/orgs/default/metrics')).status).toBe(401);
  });

  it('drops the series of a deleted check, and past the series limit says how many were left out', async () => {
    expect((await daemon.request('DELETE', '/orgs/default/checks/blog', { token: admin })).status).toBe(204);
    const text = await scrape();
    expect(text).not.toContain('check="blog"');
    // A second daemon on the same database (its stop must not drop it).
    const capped = await startTestDaemon(kind, {
      env: { SVC_METRICS_LISTEN: '127.0.0.1:0', SVC_METRICS_CHECK_SERIES_LIMIT: '1' },
      database: { ...daemon.database, drop: async () => {} },
    });
    try {
      const cappedText = await (await fetch(capped.metricsUrl!)).text();
      expect(cappedText).toContain('svc_check_series_dropped 2');
      expect(cappedText.match(/^svc_check_state\{/gm)).toHaveLength(1);
    } finally {
      await capped.stop();
    }
  });
});

describe('the Grafana dashboard', () => {
  it('parses, and every query names only series svc exports', async () => {
    const { readFileSync } = await import('node:fs');
    const dashboard = JSON.parse(readFileSync(new URL('../../../packaging/grafana/svc-dashboard.json', import.meta.url), 'utf8')) as {
      panels: { title: string; targets: { expr: string }[] }[];
      templating: { list: { query?: unknown }[] };
    };
    // The families the daemon registers (nothing is collected: no database is asked).
    const { createMetrics } = await import('../../../daemon/metrics/metrics.js');
    const exported = new Set(
      createMetrics({} as never, { checkSeriesLimit: 1 })
        .registry.getMetricsAsArray()
        .map((metric) => metric.name),
    );
    const queries = [...dashboard.panels.flatMap((panel) => panel.targets.map((target) => target.expr)), JSON.stringify(dashboard.templating.list)];
    const named = queries.flatMap((query) => query.match(/\bsvc_[a-z_]+/g) ?? []).map((name) => name.replace(/_(bucket|sum|count)$/, ''));
    expect(named.length).toBeGreaterThan(5);
    for (const name of named) expect(exported, name).toContain(name);
    expect(dashboard.panels.map((panel) => panel.title)).toEqual(
      expect.arrayContaining(['Uptime per check (24 h)', 'Response time per check', 'Open incidents', 'Runner lag p99']),
    );
  });
});
