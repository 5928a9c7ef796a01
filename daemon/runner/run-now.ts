import type { CheckDefinition } from '../../checks/index.js';
import type { EgressPolicy } from '../../probes/egress.js';
import type { ProbeSlots } from '../../probes/run-slots.js';
import { failureMessage } from '../../probes/failure-message.js';
import { runProbe } from '../../probes/run-probe.js';
import type { ProbeResult } from '../../probes/probe.js';
import type { AppCaches } from '../caches.js';
import type { StoredCheck } from '../checks/check-rows.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/connect.js';
import { validationFailed } from '../errors.js';
import type { Keyring } from '../secrets/keyring.js';
import { prepareCheck } from '../secrets/substitute.js';
import { statesOf } from './check-runtime.js';
import { heartbeatVerdict } from './heartbeat.js';
import type { ResultView } from './result-codes.js';
import { writeRecords } from './result-writer.js';

type Deps = { db: Db; clock: Clock; egress: EgressPolicy; probeSlots?: ProbeSlots; keyring: Keyring; caches: Pick<AppCaches, 'probes' | 'jsonQueries'> };

const view = (at: number, result: ProbeResult): ResultView => ({ at: new Date(at).toISOString(), ...result });

/**
 * Runs a stored check now, outside its schedule, and records the result like any other run
 * (it counts towards the state). A heartbeat check answers its deadline: down (and recorded)
 * when the ping is late, up otherwise.
 */
export async function runCheckNow(deps: Deps, organizationUid: string, check: StoredCheck): Promise<ResultView> {
  const state = (await statesOf(deps.db.kysely, [check.uid], deps.clock.now().getTime())).get(check.uid);
  if (!state) throw new Error('the check has no state row');
  const at = deps.clock.now().getTime();
  let result: ProbeResult;
  if (check.type === 'heartbeat') {
    const late = heartbeatVerdict(
      {
        lastPingAt: state.last_ping_at === null ? null : Number(state.last_ping_at),
        armedAt: Number(state.armed_at),
        runStartedAt: state.run_started_at === null ? null : Number(state.run_started_at),
      },
      check.config,
      at,
    );
    if (!late)
      return view(at, {
        status: 'up',
        latencyMs: 0,
        message: state.last_ping_at === null ? 'no ping yet; the deadline has not passed' : 'the last ping is on time',
      });
    result = late;
  } else {
    result = await runCandidate(deps, organizationUid, check);
  }
  const [written] = await writeRecords(deps.db, [
    {
      series: Number(state.series),
      check: { uid: check.uid, organizationUid, slug: check.slug, name: check.name, thresholds: check.thresholds },
      at,
      result,
    },
  ]);
  // The time it was recorded under (a result in the same millisecond as another is placed after it).
  return view(written?.at ?? at, result);
}

/** Runs a check definition once without storing anything (`POST /checks/test`). */
export async function testCheck(deps: Deps, organizationUid: string, check: CheckDefinition): Promise<ResultView> {
  if (check.type === 'heartbeat') {
    throw validationFailed(
      [{ path: 'type', message: 'a heartbeat check is passive: it has nothing to run until its job pings' }],
      'The check cannot be tested.',
    );
  }
  const at = deps.clock.now().getTime();
  return view(at, await runCandidate(deps, organizationUid, check));
}

async function runCandidate(deps: Deps, organizationUid: string, check: CheckDefinition): Promise<ProbeResult> {
  let prepared;
  try {
    prepared = await prepareCheck(deps, organizationUid, check);
  } catch (error) {
    // A secret it refers to is not set: a down result naming it, as a scheduled run records.
    return { status: 'down', latencyMs: 0, message: failureMessage(error) };
  }
  return runProbe(prepared.check, {
    egress: deps.egress,
    slots: deps.probeSlots,
    secretValues: prepared.secretValues,
    caches: deps.caches.probes,
    jsonQueries: deps.caches.jsonQueries.evaluate,
  });
}
