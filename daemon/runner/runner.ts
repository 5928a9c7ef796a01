import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { EgressPolicy } from '../../probes/egress.js';
import type { ProbeSlots } from '../../probes/run-slots.js';
import { failureMessage } from '../../probes/failure-message.js';
import type { ProbeCaches } from '../../probes/probe-caches.js';
import { runProbe } from '../../probes/run-probe.js';
import type { ProbeResult } from '../../probes/probe.js';
import type { CheckDefinition } from '../../checks/index.js';
import type { Clock } from '../clock.js';
import type { RunnerConfig } from '../config/config.js';
import type { Db } from '../db/connect.js';
import { failureLog, type FailureLog } from '../failure-log.js';
import type { WriteHealth } from '../db/database-fault.js';
import type { Logger } from '../log.js';
import type { Metrics } from '../metrics/metrics.js';
import type { Keyring } from '../secrets/keyring.js';
import { prepareCheck } from '../secrets/substitute.js';
import type { JsonQueryEvaluator } from '../../probes/json-queries.js';
import { Beat, onBeat, RUN_BEAT_MS } from './beat.js';
import { ensureStates } from './check-states.js';
import { claimDue, earliestDue, releaseClaims, type ClaimedRun } from './claim.js';
import { heartbeatVerdict } from './heartbeat.js';
import { runsOnProbeThread, type ProbeThreads } from './probe-threads.js';
import { pruneOnce } from './pruner.js';
import { ResultQueue } from './result-queue.js';
import type { RunRecord } from './result-writer.js';
import { nextSlot } from './schedule.js';

/** What a runner needs. */
export interface RunnerDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  config: RunnerConfig;
  egress: EgressPolicy;
  /** Bounds on checks of a type running at once in this process (browser), shared with runs now. */
  probeSlots?: ProbeSlots;
  /** Decrypts the organization secrets a check refers to, just before it runs. */
  keyring: Keyring;
  metrics: Metrics;
  /** What probes keep between runs (the app's, AppDeps.caches.probes). */
  probeCaches: ProbeCaches;
  /** Where JSON queries are evaluated: the app's worker pool (AppDeps.caches.jsonQueries); on this thread when absent. */
  jsonQueries?: JsonQueryEvaluator;
  /** Where HTTP and TCP runs go instead of this thread (SVC_RUNNER_PROBE_THREADS); on this thread when absent. */
  probeThreads?: ProbeThreads;
  /** Told when result writes fail for a database fault and work again (`/ready`). */
  writeHealth?: WriteHealth;
}

/** Claims are made this far ahead, so a run starts on its beat rather than at the next poll. */
const LOOKAHEAD_MS = 1000;
/**
 * How often the runner looks for due runs, unless its last claim was full. Half the lookahead:
 * every run is claimed half a second to a second before it is due.
 */
const POLL_MS = 500;
/**
 * How soon it looks again when it had no room (its concurrency taken by runs under way and
 * claimed ones waiting), unless a run ends before (`roomMade`): on the beat after next at the
 * latest. A look with no room reads nothing, and at such rates the beat comes anyway.
 */
const NO_ROOM_POLL_MS = RUN_BEAT_MS;
/** How often new checks get their state rows. */
const SYNC_MS = 5000;
/** How often old results are pruned. */
const PRUNE_MS = 10 * 60_000;
/** At most this many runs per claim statement. */
const CLAIM_BATCH = 500;
/** What every probed run records under SVC_RUNNER_DRY_RUN (benchmarks of the coordination). */
const DRY_RUN_RESULT: ProbeResult = Object.freeze({ status: 'up', latencyMs: 0, message: 'dry run: not probed' });
/** Lag samples kept for `stats()`. */
const LAG_SAMPLES = 200_000;

/**
 * The slot after a run that was due at `dueAt` and started at `startedMs`: the following slot,
 * never the one just run (even when a timer fired a millisecond early). A run that was already
 * due when this runner started (slots missed while no runner ran, or due at the end of a dead
 * runner's lease, off the grid) counts as the run of the nearest slot: when the coming slot is
 * less than half an interval away it is this run, so after a restart a check does not run at
 * once and again a moment later.
 */
export function slotAfterRun(checkUid: string, intervalSeconds: number, dueAt: number, startedMs: number, dueBeforeStart: boolean): number {
  const at = Math.max(startedMs, dueAt);
  return nextSlot(checkUid, intervalSeconds, dueBeforeStart ? at + (intervalSeconds * 1000) / 2 : at);
}

/** What a runner has done, for the benchmark and the logs. */
export interface RunnerStats {
  started: number;
  /** Start minus due time of recent runs, in ms. */
  lagMs: number[];
}

/**
 * The monitoring engine of one daemon: scheduler (claims due runs through the database) ->
 * executor (`runProbe`, or the heartbeat deadline) -> batched result writer (results, state,
 * incidents). Any number of runners share one database; the claims keep each run to one of them.
 */
export class Runner {
  /** This runner's name in leases: unique per process. */
  readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly queue: ResultQueue;
  /** The runner's one timer: runs start, results are written and claims are made on it. */
  private readonly beat: Beat;
  /** Claimed runs waiting for their beat, by beat. */
  private readonly waiting = new Map<number, ClaimedRun[]>();
  private readonly inflight = new Set<Promise<void>>();
  /** Series waiting or running here: a run this runner is so late with that its own lease ran out is not claimed twice. */
  private readonly active = new Set<number>();
  /** Runs waiting or running here per organization, held to its share of the concurrency. */
  private readonly perOrganization = new Map<string, number>();
  private running = false;
  private stopping = false;
  /** The claims under way, if any. */
  private claiming: Promise<void> | undefined;
  /** The beat of the next claim. */
  private nextClaimBeat = 0;
  /** The last look had no room: the next run that ends makes some, and the runner looks again then. */
  private waitingForRoom = false;
  private lastSync = 0;
  private lastPrune = 0;
  private readonly lag: number[] = [];
  private started = 0;
  private readonly claimFailures: FailureLog;

  /** When this runner was made (its daemon started): runs due before it are overdue from the downtime. */
  private readonly createdAt: number;

  constructor(private readonly deps: RunnerDeps) {
    this.createdAt = deps.clock.now().getTime();
    this.claimFailures = failureLog(
      deps.logger,
      { failed: 'runner: claiming due runs failed', recovered: 'runner: claiming due runs works again' },
      { level: 'error' },
    );
    this.beat = new Beat(
      () => this.now(),
      (beatMs) => this.onBeat(beatMs),
    );
    this.queue = new ResultQueue(deps.db, deps.logger, {
      bufferLimit: deps.config.resultBuffer,
      metrics: deps.metrics,
      writeHealth: deps.writeHealth,
      beat: this.beat,
    });
  }

  /** Starts claiming and running checks until `stop()`. */
  start(): void {
    if (this.running || this.stopping) return;
    this.running = true;
    this.lastPrune = this.now() - PRUNE_MS + 60_000;
    this.claim();
  }

  /**
   * Runs everything due now and waits until it is written: the same stages as the running
   * loop, one step at a time, for tests that move an injected clock.
   */
  async tick(): Promise<void> {
    const nowMs = this.now();
    await ensureStates(this.deps.db.kysely, nowMs);
    for (;;) {
      const runs = await claimDue(this.deps.db, this.owner, { nowMs, horizonMs: nowMs, limit: CLAIM_BATCH, leaseMs: this.leaseMs });
      await Promise.all(runs.map((run) => this.execute(run).then((record) => this.queue.push(record))));
      if (runs.length < CLAIM_BATCH) break;
    }
    await this.queue.flush();
  }

  /** Copies of the figures so far. */
  stats(): RunnerStats {
    return { started: this.started, lagMs: [...this.lag] };
  }

  /**
   * Drains: claims nothing more, gives the claimed runs that have not started back to the
   * database (due again at once for any runner), waits for the runs in flight and writes them.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.claiming;
    const unstarted = [...this.waiting.values()].flat();
    for (const run of unstarted) this.countRun(run.organizationUid, -1);
    this.waiting.clear();
    await releaseClaims(this.deps.db, this.owner, unstarted).catch((error) =>
      this.deps.logger.warn({ err: (error as Error).message }, 'runner: could not release claims; they are taken over when their leases end'),
    );
    // The beat goes on until the runs under way are written: their results' batches are written on it.
    await Promise.allSettled([...this.inflight]);
    this.beat.stop();
    await this.queue.close();
  }

  /** How many results wait in memory for the database (written when it can be again). */
  get resultsWaiting(): number {
    return this.queue.waiting;
  }

  /** How many runs one organization may hold here at once: its share of the concurrency, at least one. */
  private get organizationShare(): number {
    return Math.max(1, Math.floor((this.deps.config.concurrency * this.deps.config.orgSharePercent) / 100));
  }

  private countRun(organizationUid: string, change: 1 | -1): void {
    const count = (this.perOrganization.get(organizationUid) ?? 0) + change;
    if (count > 0) this.perOrganization.set(organizationUid, count);
    else this.perOrganization.delete(organizationUid);
  }

  /** Claimed runs waiting for their beat. */
  private get waitingRuns(): number {
    let count = 0;
    for (const runs of this.waiting.values()) count += runs.length;
    return count;
  }

  private get leaseMs(): number {
    return this.deps.config.leaseSeconds * 1000;
  }

  private now(): number {
    return this.deps.clock.now().getTime();
  }

  /**
   * What is done on a beat: the probe threads' answers are read, the runs of this beat start,
   * the result batch is written once it has waited its time, and due runs are claimed every
   * POLL_MS. What is not due yet asks for its beat again.
   */
  private onBeat(beatMs: number): void {
    this.deps.probeThreads?.collect();
    for (const [at, runs] of this.waiting) {
      if (at > beatMs) {
        this.beat.at(at);
        continue;
      }
      this.waiting.delete(at);
      for (const run of runs) this.begin(run);
    }
    this.queue.onBeat(beatMs);
    if (!this.running || this.stopping || this.claiming) return;
    if (this.nextClaimBeat > beatMs) this.beat.at(this.nextClaimBeat);
    // Once the answers read above have settled their runs (promises, in this turn still), so
    // that the claim sees the room they made.
    else setImmediate(() => this.claim());
  }

  /**
   * A run ended. When the last look had no room, the runner looks again once the runs ending
   * with it have settled, rather than on the beat after next: at high rates runs end between
   * beats, as the probe threads' answers come in.
   */
  private roomMade(): void {
    if (!this.waitingForRoom || !this.running || this.stopping || this.claiming) return;
    this.waitingForRoom = false;
    setImmediate(() => this.claim());
  }

  /** Claims due runs, again at once while its claims come back full, then asks for the beat of the next claim. */
  private claim(): void {
    if (this.claiming || this.stopping) return;
    this.claiming = (async () => {
      let pauseMs = 0;
      while (pauseMs === 0 && !this.stopping) pauseMs = await this.claimOnce();
      this.nextClaimBeat = onBeat(this.now() + pauseMs);
    })().finally(() => {
      this.claiming = undefined;
      if (!this.stopping) this.beat.at(this.nextClaimBeat);
    });
  }

  /** One claim; answers how long to pause before the next: 0 when it took as many runs as it asked for. */
  private async claimOnce(): Promise<number> {
    let claimedFull = false;
    let pauseMs = POLL_MS;
    try {
      const nowMs = this.now();
      if (nowMs - this.lastSync >= SYNC_MS) {
        this.lastSync = nowMs;
        await ensureStates(this.deps.db.kysely, nowMs);
      }
      if (nowMs - this.lastPrune >= PRUNE_MS) {
        this.lastPrune = nowMs;
        void pruneOnce(this.deps.db, nowMs, this.deps.config.resultsRetentionSeconds).then(
          ({ partitions }) => {
            if (partitions.length > 0) this.deps.logger.info({ partitions }, 'runner: dropped the result partitions past the retention');
          },
          (error) => this.deps.logger.warn({ err: (error as Error).message }, 'runner: pruning old results failed'),
        );
      }
      const room = this.deps.config.concurrency - this.inflight.size - this.waitingRuns;
      const limit = Math.min(room, CLAIM_BATCH);
      this.waitingForRoom = limit <= 0;
      if (limit <= 0) pauseMs = NO_ROOM_POLL_MS;
      const horizonMs = nowMs + LOOKAHEAD_MS;
      // A claim is a write transaction: it is made only when a run is due by the horizon.
      const earliest = limit > 0 ? await earliestDue(this.deps.db) : null;
      if (earliest !== null && earliest <= horizonMs) {
        const share = this.organizationShare;
        const full = [...this.perOrganization].filter(([, count]) => count >= share).map(([org]) => org);
        const claimStarted = performance.now();
        const runs = await claimDue(this.deps.db, this.owner, {
          nowMs,
          horizonMs,
          limit,
          leaseMs: this.leaseMs,
          skipOrganizations: full,
        });
        this.deps.metrics.runnerClaimSeconds.observe((performance.now() - claimStarted) / 1000);
        // One claim may bring an organization past its share: the runs beyond it go back, due as they were.
        const over: ClaimedRun[] = [];
        for (const run of runs) {
          if ((this.perOrganization.get(run.organizationUid) ?? 0) >= share) over.push(run);
          else this.schedule(run);
        }
        if (over.length > 0) await releaseClaims(this.deps.db, this.owner, over);
        if (runs.length > 0 && this.deps.logger.isLevelEnabled('debug')) {
          this.deps.logger.debug({ claimed: runs.map((run) => `${run.series}@${run.dueAt}`), at: nowMs }, 'runner: claimed');
        }
        claimedFull = runs.length === limit;
      }
      this.claimFailures.succeeded();
    } catch (error) {
      this.claimFailures.failed(error as Error);
    }
    return claimedFull ? 0 : pauseMs;
  }

  /** Keeps a claimed run for its beat. */
  private schedule(run: ClaimedRun): void {
    if (this.active.has(run.series)) return;
    this.active.add(run.series);
    this.countRun(run.organizationUid, 1);
    const at = onBeat(run.dueAt);
    const runs = this.waiting.get(at);
    if (runs) runs.push(run);
    else {
      this.waiting.set(at, [run]);
      this.beat.at(at);
    }
  }

  /** Starts a run on its beat; its result goes to the result queue. */
  private begin(run: ClaimedRun): void {
    const running = this.execute(run)
      .then((record) => this.queue.push(record))
      .finally(() => {
        this.inflight.delete(running);
        this.active.delete(run.series);
        this.countRun(run.organizationUid, -1);
        this.roomMade();
      });
    this.inflight.add(running);
  }

  /** Runs one claimed run and answers what to record. Never throws. */
  private async execute(run: ClaimedRun): Promise<RunRecord> {
    const startedMs = this.now();
    this.started++;
    if (this.lag.length >= LAG_SAMPLES) this.lag.splice(0, LAG_SAMPLES / 2);
    this.lag.push(startedMs - run.dueAt);
    this.deps.metrics.runnerLagSeconds.observe(Math.max(0, startedMs - run.dueAt) / 1000);
    const { check } = run;
    const record: RunRecord = {
      series: run.series,
      check: { uid: check.uid, organizationUid: run.organizationUid, slug: check.slug, name: check.name, thresholds: check.thresholds },
      at: startedMs,
      result: null,
      claim: { owner: this.owner, nextRunAt: slotAfterRun(check.uid, check.intervalSeconds, run.dueAt, startedMs, run.dueAt < this.createdAt) },
    };
    if (!check.enabled) return { ...record, paused: true };
    if (check.type === 'heartbeat') record.judgedOnPingAt = run.lastPingAt;
    const result = await this.probe(run, startedMs);
    if (result) {
      this.deps.metrics.checkRuns.inc({ type: check.type, status: result.status });
      this.deps.metrics.checkRunCounts.add(check.uid, result.status);
    }
    return { ...record, result };
  }

  private async probe(run: ClaimedRun, startedMs: number): Promise<ProbeResult | null> {
    const check = run.check as CheckDefinition;
    try {
      if (check.type === 'heartbeat') return heartbeatVerdict(run, check.config, startedMs);
      if (this.deps.config.dryRun) return DRY_RUN_RESULT;
      const prepared = await prepareCheck(this.deps, run.organizationUid, check);
      const { probeThreads } = this.deps;
      if (probeThreads && runsOnProbeThread(prepared.check)) {
        this.deps.metrics.runnerProbeThreadRuns.inc();
        return await probeThreads.run(prepared.check, prepared.secretValues);
      }
      return await runProbe(prepared.check, {
        egress: this.deps.egress,
        slots: this.deps.probeSlots,
        secretValues: prepared.secretValues,
        caches: this.deps.probeCaches,
        jsonQueries: this.deps.jsonQueries,
      });
    } catch (error) {
      return { status: 'down', latencyMs: 0, message: failureMessage(error) };
    }
  }
}
