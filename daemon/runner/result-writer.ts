import type { Selectable } from 'kysely';
import type { ProbeResult } from '../../probes/probe.js';
import type { Db } from '../db/connect.js';
import { inTransaction } from '../db/in-transaction.js';
import type { CheckStatesTable } from '../db/schema.js';
import { maintenanceCoverage } from '../maintenance/coverage.js';
import { recordStateChanges, type ChangedCheck, type StateChange } from './check-incidents.js';
import { BUCKET_COLUMNS, bucketOf } from './latency-histogram.js';
import { STATUS_CODE, storedMessage } from './result-codes.js';
import { RowWrite } from './row-write.js';
import { nextState, type StateThresholds } from './state-machine.js';

/** One thing to record about a check: a result, a ping, a pause, and the release of a claim. */
export interface RunRecord {
  series: number;
  check: ChangedCheck & { thresholds: StateThresholds };
  /** Epoch ms the run started (or the ping arrived). */
  at: number;
  /** Null when the run had nothing to report (a heartbeat whose deadline has not passed). */
  result: ProbeResult | null;
  /** A scheduled run: the claim it ran under, released with the next due time. */
  claim?: { owner: string; nextRunAt: number };
  /** A heartbeat ping: moves the deadline and ends the run under way. */
  ping?: boolean;
  /** The check was disabled when its run came: it is paused. */
  paused?: boolean;
  /**
   * A heartbeat's scheduled run: the last ping its verdict was judged on (its claim's). A ping
   * recorded since makes the verdict stale, and its result is not written.
   */
  judgedOnPingAt?: number | null;
}

type StateRow = Selectable<CheckStatesTable>;

/**
 * Whether a heartbeat's verdict was judged on a last ping the state no longer holds: a ping that
 * came after the run was claimed (up to a second ahead) and before its result is written has
 * recorded its own result, and a deadline judged without it would be a false failure.
 */
function staleVerdict(record: RunRecord, row: StateRow): boolean {
  if (record.judgedOnPingAt === undefined || record.result === null) return false;
  return (row.last_ping_at === null ? null : Number(row.last_ping_at)) !== record.judgedOnPingAt;
}

/**
 * Writes a batch of records in one transaction: the raw results, the hourly and daily aggregates, each
 * check's new state (through the thresholds), the incidents and state changes that follow, and
 * the release of the claims with their next due times. A result that comes while a maintenance
 * window covers its check is kept but leaves the state at `maintenance` (no incident, no
 * notification) and stays out of the aggregates, so uptime leaves the window out; the windows
 * are read in the same transaction. A scheduled run whose claim another
 * runner has taken over meanwhile is dropped, so a run is never counted twice; so is the result
 * of a heartbeat's run judged without a ping recorded since. Answers the records that were written.
 */
export async function writeRecords(db: Db, records: readonly RunRecord[]): Promise<RunRecord[]> {
  if (records.length === 0) return [];
  // inTransaction: the notifications the batch queues are delivered as soon as it commits.
  return inTransaction(db.kysely, async (trx) => {
    const series = [...new Set(records.map((record) => record.series))].sort((a, b) => a - b);
    let query = trx.selectFrom('check_states').selectAll().where('series', 'in', series).orderBy('series');
    if (db.kind === 'postgres') query = query.forUpdate();
    const rows = new Map((await query.execute()).map((row) => [Number(row.series), { ...row, series: Number(row.series) }]));
    const dirty = new Set<StateRow>();
    const written: RunRecord[] = [];
    const times = records.map((record) => record.at);
    const inMaintenance = await maintenanceCoverage(
      trx,
      records.map((record) => record.check),
      Math.min(...times),
      // A result placed just after a later one (below) is judged at its own start.
      Math.max(...times),
    );
    const unaggregated = new Set<RunRecord>();
    // The state changes, recorded with their incidents once every record is judged (in order:
    // each reads and writes its row's incident).
    const changes: (StateChange & { state: StateRow })[] = [];
    for (const asRun of records) {
      const row = rows.get(asRun.series);
      // The check was deleted, or another runner took this run over.
      if (!row || (asRun.claim && row.lease_owner !== asRun.claim.owner)) continue;
      const record = staleVerdict(asRun, row) ? { ...asRun, result: null } : asRun;
      // Results of one check are kept in time order with distinct times (the primary key): one
      // that finished after a later-started one, or in the same millisecond, is placed just after it.
      const stamped = record.result && row.last_at !== null && record.at <= Number(row.last_at) ? { ...record, at: Number(row.last_at) + 1 } : record;
      written.push(stamped);
      dirty.add(row);
      const from = row.state;
      let to = from;
      const message = record.result ? record.result.message : null;
      if (record.paused) {
        to = 'paused';
        row.fail_streak = 0;
        row.success_streak = 0;
        // A heartbeat's deadline starts again when it is enabled again.
        row.armed_at = record.at;
        row.run_started_at = null;
      } else if (record.result && from === 'paused' && Date.parse(row.state_since) > record.at) {
        // A run that started before the check was paused: its result is kept, the state stays paused.
      } else if (record.result) {
        const next = nextState({ state: from, failStreak: row.fail_streak, successStreak: row.success_streak }, record.result.status, record.check.thresholds);
        // In maintenance the streaks go on counting, so the state the results call for holds as
        // soon as the window ends (a check failing throughout opens its incident then).
        to = inMaintenance(record.check.uid, record.at) ? 'maintenance' : next.state;
        if (to === 'maintenance') unaggregated.add(stamped);
        row.fail_streak = next.failStreak;
        row.success_streak = next.successStreak;
        row.last_at = stamped.at;
        row.last_status = STATUS_CODE[record.result.status];
        row.last_latency_ms = record.result.latencyMs;
        row.last_message = storedMessage(record.result.message);
      }
      if (record.claim) {
        row.next_run_at = record.claim.nextRunAt;
        row.lease_owner = null;
      }
      if (record.ping) {
        row.last_ping_at = record.at;
        row.run_started_at = null;
      }
      if (to !== from) {
        changes.push({ check: record.check, from, to, message, at: new Date(record.at), state: row });
        row.state = to;
        row.state_since = new Date(record.at).toISOString();
      }
    }
    await recordStateChanges(trx, changes);
    const results = written.filter((record) => record.result !== null);
    await INSERT_RESULTS.run(
      trx,
      db.kind,
      results.map(({ series, at, result }) => [series, at, STATUS_CODE[result!.status], result!.latencyMs, storedMessage(result!.message)]),
    );
    await addToAggregates(
      trx,
      db.kind,
      results.filter((record) => !unaggregated.has(record)),
    );
    await updateStates(trx, db.kind, [...dirty]);
    return written;
  });
}

/** The state columns a batch writes back, with the type each value is read as (PostgreSQL infers none from a VALUES list). */
const STATE_COLUMNS = [
  ['next_run_at', 'bigint'],
  ['lease_owner', 'text'],
  ['state', 'text'],
  ['state_since', 'text'],
  ['fail_streak', 'integer'],
  ['success_streak', 'integer'],
  ['last_at', 'bigint'],
  ['last_status', 'integer'],
  ['last_latency_ms', 'integer'],
  ['last_message', 'text'],
  ['incident_uid', 'text'],
  ['last_ping_at', 'bigint'],
  ['armed_at', 'bigint'],
  ['run_started_at', 'bigint'],
] as const satisfies ReadonlyArray<readonly [keyof StateRow, string]>;

/** The results of a batch, each kept once (a retried batch finds its rows there). */
const INSERT_RESULTS = new RowWrite(
  'insert into check_results (series, at, status, latency_ms, message) values',
  '(?, ?, ?, ?, ?)',
  'on conflict (series, at) do nothing',
);

/**
 * The states of a batch, written back from a VALUES list joined on the series (both databases
 * take UPDATE ... FROM a common table), each value cast to its column's type.
 */
const UPDATE_STATES = new RowWrite(
  `with v (series, ${STATE_COLUMNS.map(([name]) => name).join(', ')}) as (values`,
  `(cast(? as integer), ${STATE_COLUMNS.map(([, type]) => `cast(? as ${type})`).join(', ')})`,
  `) update check_states set ${STATE_COLUMNS.map(([name]) => `${name} = v.${name}`).join(', ')} from v where check_states.series = v.series`,
);

/** Writes the rows' states back. */
async function updateStates(db: Db['kysely'], kind: Db['kind'], rows: readonly StateRow[]): Promise<void> {
  await UPDATE_STATES.run(
    db,
    kind,
    rows.map((row) => [
      row.series,
      ...STATE_COLUMNS.map(([name]) => {
        const value = row[name];
        return value === null || typeof value === 'string' ? value : Number(value);
      }),
    ]),
  );
}

/** What an aggregate row counts, in column order: runs, failed and degraded runs, then the latency histogram. */
const COUNT_COLUMNS = ['runs', 'down_runs', 'degraded_runs', ...BUCKET_COLUMNS] as const;
/** Where each count sits in a row of values: after the series and the hour or day. */
const RUNS = 2;
const DOWN = 3;
const DEGRADED = 4;
const FIRST_BUCKET = 5;

/**
 * The aggregate tables, by hour (the 24-hour window and hourly buckets) and by day (long windows),
 * each with its upsert: a batch adds its counts to the rows already there.
 */
const AGGREGATES = [
  { table: 'check_hourly', column: 'hour', spanMs: 3_600_000 },
  { table: 'check_daily', column: 'day', spanMs: 86_400_000 },
].map(({ table, column, spanMs }) => ({
  spanMs,
  upsert: new RowWrite(
    `insert into ${table} (series, ${column}, ${COUNT_COLUMNS.join(', ')}) values`,
    `(${['series', column, ...COUNT_COLUMNS].map(() => '?').join(', ')})`,
    `on conflict (series, ${column}) do update set ${COUNT_COLUMNS.map((name) => `${name} = ${table}.${name} + excluded.${name}`).join(', ')}`,
  ),
}));

/** Adds the results to their hours' and days' counts and latency histograms. */
async function addToAggregates(db: Db['kysely'], kind: Db['kind'], records: readonly RunRecord[]): Promise<void> {
  for (const { spanMs, upsert } of AGGREGATES) {
    const spans = new Map<string, number[]>();
    for (const { series, at, result } of records) {
      const span = Math.floor(at / spanMs);
      const key = `${series}:${span}`;
      let row = spans.get(key);
      if (!row) spans.set(key, (row = [series, span, ...COUNT_COLUMNS.map(() => 0)]));
      row[RUNS]++;
      if (result!.status === 'down') row[DOWN]++;
      else {
        if (result!.status === 'degraded') row[DEGRADED]++;
        // Latency percentiles describe the runs that got an answer.
        row[FIRST_BUCKET + bucketOf(result!.latencyMs)]++;
      }
    }
    await upsert.run(db, kind, [...spans.values()]);
  }
}
