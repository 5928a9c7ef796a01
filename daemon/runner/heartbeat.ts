import { nextCronTime } from '../../checks/cron-schedule.js';
import type { ProbeResult } from '../../probes/probe.js';
import { upsideDownResult } from '../../probes/upside-down.js';
import type { ClaimedRun } from './claim.js';

// Heartbeat checks are passive: the monitored job pings the service, and silence is the failure.
// A ping records a result at once (heartbeat-pings.ts); the scheduled run of the check only
// looks at the deadlines: the next expected ping, and the end of a run that signalled its start.

/** The heartbeat's config as the catalog defines it: a period or a cron schedule, and a grace time. */
export interface HeartbeatConfig {
  periodSeconds?: number;
  schedule?: string;
  timezone?: string;
  graceSeconds: number;
  /** Upside-down: a missed deadline counts as up (the job must not run), a ping as down (heartbeat-pings.ts). */
  invert?: boolean;
}

/** What the deadline reads of a check's state: the last ping, since when it is armed, a run under way (epoch ms). */
export type HeartbeatTimes = Pick<ClaimedRun, 'lastPingAt' | 'armedAt' | 'runStartedAt'>;

/**
 * When the next ping is expected (epoch ms, before the grace time) after one at `sinceMs`: a
 * period later, or at the next time of the schedule in its time zone (see
 * checks/cron-schedule.ts for the daylight-saving changes). Null when a schedule never matches again.
 */
export function nextExpectedPing(config: HeartbeatConfig, sinceMs: number): number | null {
  if (config.periodSeconds !== undefined) return sinceMs + config.periodSeconds * 1000;
  return nextCronTime(config.schedule!, config.timezone ?? 'UTC', sinceMs);
}

const seconds = (ms: number) => Math.round(ms / 1000);

/**
 * A heartbeat's scheduled run: `down` when a run that signalled its start has not ended within
 * the grace time, or when no ping came by the expected time plus the grace time; otherwise
 * nothing to record. Upside-down, the same deadlines count as up.
 */
export function heartbeatVerdict(run: HeartbeatTimes, config: HeartbeatConfig, nowMs: number): ProbeResult | null {
  const late = missedDeadline(run, config, nowMs);
  return late && config.invert ? upsideDownResult(late) : late;
}

function missedDeadline(run: HeartbeatTimes, config: HeartbeatConfig, nowMs: number): ProbeResult | null {
  const graceMs = config.graceSeconds * 1000;
  if (run.runStartedAt !== null && nowMs - run.runStartedAt > graceMs) {
    return {
      status: 'down',
      latencyMs: 0,
      message: `the run that started ${seconds(nowMs - run.runStartedAt)} s ago did not finish within the grace time of ${config.graceSeconds} s`,
    };
  }
  // The deadline runs from the last ping, or from when the check was first seen or last paused
  // (a check enabled again is not late for the silence of its pause).
  const since = Math.max(run.lastPingAt ?? 0, run.armedAt);
  const expected = nextExpectedPing(config, since);
  if (expected === null || nowMs <= expected + graceMs) return null;
  const what = run.lastPingAt === null || run.lastPingAt < run.armedAt ? 'no ping yet' : 'no ping';
  const allowed =
    config.periodSeconds !== undefined
      ? `period ${config.periodSeconds} s + grace ${config.graceSeconds} s`
      : `expected by ${new Date(expected).toISOString()} (schedule "${config.schedule}" in ${config.timezone ?? 'UTC'}) + grace ${config.graceSeconds} s`;
  return { status: 'down', latencyMs: 0, message: `${what} for ${seconds(nowMs - since)} s (${allowed})` };
}
