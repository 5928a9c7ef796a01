import type { ProbeStatus } from '../../probes/probe.js';
import type { CheckStatesTable } from '../db/schema.js';

/** A check's state: `pending` until its first verdict, `paused` while disabled. */
export type CheckState = CheckStatesTable['state'];
export { CHECK_STATES } from '../../contract/states.js';

/** What the state machine keeps between results. */
export interface StateCounters {
  state: CheckState;
  failStreak: number;
  successStreak: number;
}

/** The thresholds that move the state. */
export interface StateThresholds {
  failuresBeforeDown: number;
  successesBeforeUp: number;
}

/**
 * The state after one more result. Failures count up to `failuresBeforeDown` before a check is
 * down; successes count up to `successesBeforeUp` before a pending or down check is up (or
 * degraded). A check that is up moves between up and degraded at once: both are successes.
 * A check coming back from `paused` starts over as `pending`. One leaving `maintenance` is judged
 * as `pending` with the streaks it counted during the window, so a check that failed throughout
 * is down at its first failure after it.
 */
export function nextState(previous: StateCounters, status: ProbeStatus, thresholds: StateThresholds): StateCounters {
  const from = previous.state === 'paused' || previous.state === 'maintenance' ? 'pending' : previous.state;
  const counters = previous.state === 'paused' ? { failStreak: 0, successStreak: 0 } : previous;
  if (status === 'down') {
    const failStreak = counters.failStreak + 1;
    return { state: failStreak >= thresholds.failuresBeforeDown ? 'down' : from, failStreak, successStreak: 0 };
  }
  const successStreak = counters.successStreak + 1;
  const healthy = from === 'up' || from === 'degraded' || successStreak >= thresholds.successesBeforeUp;
  return { state: healthy ? status : from, failStreak: 0, successStreak };
}
