import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Db } from '../db/connect.js';
import { CheckRunCounts, registerCheckMetrics } from './check-metrics.js';

/** The daemon's Prometheus series, one registry per daemon (never module-level). */
export interface Metrics {
  registry: Registry;
  /** Every API request by route template (never the raw path: it may carry a token) and status. */
  httpRequests: Histogram<'method' | 'route' | 'status'>;
  /** Sign-in attempts by method (`password`, `totp`, a provider key) and result. */
  signIns: Counter<'method' | 'result'>;
  /** Time to hash or verify one password. */
  passwordHashSeconds: Histogram<'operation'>;
  /** Imports by source and whether they were a preview or applied, and their items by outcome. */
  imports: Counter<'source' | 'mode'>;
  importItems: Counter<'source' | 'outcome'>;
  /** Check runs by type and status, and how late each started after it was due. */
  checkRuns: Counter<'type' | 'status'>;
  /** This process's runs per check, shown as svc_check_runs_total{org,check,status}. */
  checkRunCounts: CheckRunCounts;
  runnerLagSeconds: Histogram;
  /** How long one claim of due runs takes (its transaction, locks waited for included). */
  runnerClaimSeconds: Histogram;
  /** Runs handed to a probe thread (SVC_RUNNER_PROBE_THREADS) instead of run on the daemon's thread. */
  runnerProbeThreadRuns: Counter;
  /** Results kept in memory because the database could not be written, and those given up past the bound. */
  runnerResultsWaiting: Gauge;
  runnerResultsGivenUp: Counter;
  /** Notification deliveries by channel type and result. */
  notificationDeliveries: Counter<'channel_type' | 'result'>;
}

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Creates the registry and its series. Gauges that describe the database (open incidents, pool
 * use) are read when Prometheus scrapes, so nothing polls between scrapes.
 */
export function createMetrics(db: Db, options: { checkSeriesLimit: number }): Metrics {
  const registry = new Registry();
  // The event loop's delay is sampled by a timer of its own, which no other timer shares: every
  // 10 ms by default, which alone woke an idle daemon a hundred times a second. Once a second it
  // still sees every stall of a second or more, and a shorter one as often as it overlaps a
  // sample; the stalls that hold up work are seen in full where the work is timed: every run's
  // lateness (svc_runner_lag_seconds) and every request's duration (docs/monitoring.md,
  // "The event-loop delay sampled once a second").
  collectDefaultMetrics({ register: registry, prefix: 'svc_', eventLoopMonitoringPrecision: 1000 });
  // Gauges named like counters, which promtool refuses: the event loop's handle counts are
  // not worth a name of their own here.
  for (const name of ['svc_nodejs_active_handles_total', 'svc_nodejs_active_requests_total', 'svc_nodejs_active_resources_total'])
    registry.removeSingleMetric(name);
  const checkRunCounts = new CheckRunCounts();
  registerCheckMetrics(registry, db, checkRunCounts, { seriesLimit: options.checkSeriesLimit });
  const metrics: Metrics = {
    registry,
    httpRequests: new Histogram({
      name: 'svc_http_request_duration_seconds',
      help: 'API requests by route template and status.',
      labelNames: ['method', 'route', 'status'],
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
    signIns: new Counter({
      name: 'svc_sign_ins_total',
      help: 'Sign-in attempts by method and result.',
      labelNames: ['method', 'result'],
      registers: [registry],
    }),
    passwordHashSeconds: new Histogram({
      name: 'svc_password_hash_seconds',
      help: 'Time to hash or verify one password.',
      labelNames: ['operation'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    imports: new Counter({
      name: 'svc_imports_total',
      help: 'Imports by source and mode (preview or apply).',
      labelNames: ['source', 'mode'],
      registers: [registry],
    }),
    importItems: new Counter({
      name: 'svc_import_items_total',
      help: 'Imported items by source and outcome.',
      labelNames: ['source', 'outcome'],
      registers: [registry],
    }),
    checkRuns: new Counter({
      name: 'svc_runner_runs_total',
      help: 'Check runs of this process by check type and status.',
      labelNames: ['type', 'status'],
      registers: [registry],
    }),
    checkRunCounts,
    runnerLagSeconds: new Histogram({
      name: 'svc_runner_lag_seconds',
      help: 'How late a check run started after it was due.',
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
    runnerClaimSeconds: new Histogram({
      name: 'svc_runner_claim_seconds',
      help: 'How long one claim of due runs took, its transaction and the locks it waited for included.',
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    runnerProbeThreadRuns: new Counter({
      name: 'svc_runner_probe_thread_runs_total',
      help: "Check runs handed to a probe thread (SVC_RUNNER_PROBE_THREADS) instead of run on the daemon's thread.",
      registers: [registry],
    }),
    runnerResultsWaiting: new Gauge({
      name: 'svc_runner_results_waiting',
      help: 'Check results kept in memory because the database could not be written; written when it can.',
      registers: [registry],
    }),
    runnerResultsGivenUp: new Counter({
      name: 'svc_runner_results_given_up_total',
      help: 'Check results given up because more than SVC_RUNNER_RESULT_BUFFER waited for the database.',
      registers: [registry],
    }),
    notificationDeliveries: new Counter({
      name: 'svc_notification_deliveries_total',
      help: 'Notification delivery attempts by channel type and result.',
      labelNames: ['channel_type', 'result'],
      registers: [registry],
    }),
  };
  new Gauge({
    name: 'svc_open_incidents',
    help: 'Incidents not yet resolved, across all organizations.',
    registers: [registry],
    async collect() {
      const row = await db.kysely
        .selectFrom('incidents')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '!=', 'resolved')
        .executeTakeFirst();
      this.set(Number(row?.n ?? 0));
    },
  });
  if (db.poolStats) {
    const poolStats = db.poolStats;
    new Gauge({
      name: 'svc_db_pool_connections',
      help: 'PostgreSQL pool connections by state.',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const { total, idle, waiting } = poolStats();
        this.set({ state: 'in_use' }, total - idle);
        this.set({ state: 'idle' }, idle);
        this.set({ state: 'waiting_clients' }, waiting);
      },
    });
  }
  return metrics;
}
