import { Counter, Gauge, type Registry } from 'prom-client';
import type { Db } from '../db/connect.js';

// The health of every check as Prometheus series, read from the database when Prometheus
// scrapes (so every replica answers the same and nothing polls between scrapes), except the run
// counts, which each process keeps of the runs it made (Prometheus sums the replicas).

/** Runs this process made, per check and status; series of a deleted check are not shown. */
export class CheckRunCounts {
  private readonly counts = new Map<string, Map<string, number>>();

  add(checkUid: string, status: string): void {
    let byStatus = this.counts.get(checkUid);
    if (!byStatus) this.counts.set(checkUid, (byStatus = new Map()));
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
  }

  of(checkUid: string): ReadonlyMap<string, number> | undefined {
    return this.counts.get(checkUid);
  }

  /** Forgets the checks that no longer exist. */
  keepOnly(checkUids: ReadonlySet<string>): void {
    for (const uid of this.counts.keys()) if (!checkUids.has(uid)) this.counts.delete(uid);
  }
}

interface CheckRow {
  uid: string;
  org: string;
  check: string;
  type: string;
  enabled: number;
  state: string | null;
  lastAt: number | null;
  latencyMs: number | null;
}

export interface CheckMetricsOptions {
  /** Only this organization's checks (a tenant's own scrape); all when absent. */
  organizationUid?: string;
  /** At most this many checks get series; the rest are counted in svc_check_series_dropped. */
  seriesLimit: number;
}

/** Registers the check families in `registry`. */
export function registerCheckMetrics(registry: Registry, db: Db, runs: CheckRunCounts, options: CheckMetricsOptions): void {
  // One read per scrape, shared by the families (prom-client collects them concurrently).
  let pending: Promise<{ rows: CheckRow[]; dropped: number; incidents: { org: string; n: number }[] }> | undefined;
  const snapshot = () =>
    (pending ??= read(db, options).finally(() => {
      setImmediate(() => (pending = undefined));
    }));

  new Gauge({
    name: 'svc_check_up',
    help: 'Whether a check is up: 1 up or degraded, 0 down; absent while pending or paused.',
    labelNames: ['org', 'check', 'type'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of (await snapshot()).rows) {
        if (!row.enabled || (row.state !== 'up' && row.state !== 'degraded' && row.state !== 'down')) continue;
        this.set({ org: row.org, check: row.check, type: row.type }, row.state === 'down' ? 0 : 1);
      }
    },
  });
  new Gauge({
    name: 'svc_check_state',
    help: 'The state a check is in (1 on the series of its current state): pending, up, degraded, down or paused.',
    labelNames: ['org', 'check', 'state'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of (await snapshot()).rows) {
        const state = !row.enabled ? 'paused' : row.state === null || row.state === 'paused' ? 'pending' : row.state;
        this.set({ org: row.org, check: row.check, state }, 1);
      }
    },
  });
  new Gauge({
    name: 'svc_check_latency_seconds',
    help: 'Response time of the last run of a check.',
    labelNames: ['org', 'check'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of (await snapshot()).rows) {
        if (row.lastAt !== null && row.latencyMs !== null) this.set({ org: row.org, check: row.check }, row.latencyMs / 1000);
      }
    },
  });
  new Counter({
    name: 'svc_check_runs_total',
    help: 'Runs of a check made by this process, by result status.',
    labelNames: ['org', 'check', 'status'],
    registers: [registry],
    async collect() {
      this.reset();
      const { rows } = await snapshot();
      if (options.organizationUid === undefined) runs.keepOnly(new Set(rows.map((row) => row.uid)));
      for (const row of rows) {
        for (const [status, count] of runs.of(row.uid) ?? []) this.inc({ org: row.org, check: row.check, status }, count);
      }
    },
  });
  new Gauge({
    name: 'svc_incidents_open',
    help: 'Unresolved incidents of an organization.',
    labelNames: ['org'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const { org, n } of (await snapshot()).incidents) this.set({ org }, n);
    },
  });
  new Gauge({
    name: 'svc_check_series_dropped',
    help: 'Checks left out of the svc_check_* series because SVC_METRICS_CHECK_SERIES_LIMIT was reached.',
    registers: [registry],
    async collect() {
      this.set((await snapshot()).dropped);
    },
  });
}

async function read(db: Db, options: CheckMetricsOptions) {
  let checks = db.kysely
    .selectFrom('checks as c')
    .innerJoin('organizations as o', 'o.uid', 'c.organization_uid')
    .leftJoin('check_states as s', 's.check_uid', 'c.uid')
    .select(['c.uid', 'o.slug as org', 'c.slug as check', 'c.type', 'c.enabled', 's.state', 's.last_at', 's.last_latency_ms'])
    .orderBy('o.slug')
    .orderBy('c.slug')
    .limit(options.seriesLimit + 1);
  let incidents = db.kysely
    .selectFrom('incidents as i')
    .innerJoin('organizations as o', 'o.uid', 'i.organization_uid')
    .select(['o.slug as org', (eb) => eb.fn.countAll<number>().as('n')])
    .where('i.status', '!=', 'resolved')
    .groupBy('o.slug');
  let total = db.kysely.selectFrom('checks').select((eb) => eb.fn.countAll<number>().as('n'));
  if (options.organizationUid !== undefined) {
    checks = checks.where('c.organization_uid', '=', options.organizationUid);
    incidents = incidents.where('i.organization_uid', '=', options.organizationUid);
    total = total.where('organization_uid', '=', options.organizationUid);
  }
  const [rows, open] = await Promise.all([checks.execute(), incidents.execute()]);
  const dropped = rows.length > options.seriesLimit ? Number((await total.executeTakeFirst())?.n ?? 0) - options.seriesLimit : 0;
  return {
    rows: rows.slice(0, options.seriesLimit).map((row) => ({
      uid: row.uid,
      org: row.org,
      check: row.check,
      type: row.type,
      enabled: Number(row.enabled),
      state: row.state ?? null,
      lastAt: row.last_at === null || row.last_at === undefined ? null : Number(row.last_at),
      latencyMs: row.last_latency_ms === null || row.last_latency_ms === undefined ? null : Number(row.last_latency_ms),
    })),
    dropped,
    incidents: open.map((row) => ({ org: row.org, n: Number(row.n) })),
  };
}
