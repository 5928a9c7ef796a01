import type { CheckDefinition } from '../../checks/index.js';
import { referencedSecrets } from '../../checks/secret-references.js';
import { heartbeatVerdict } from '../../daemon/runner/heartbeat.js';
import { substituteSecrets } from '../../daemon/secrets/substitute.js';
import { createEgressPolicy } from '../../probes/egress.js';
import { runProbe } from '../../probes/run-probe.js';

// svc's side of the differential run: each imported check run once with the runner's own steps
// (secrets substituted, the probe under its deadline, upside-down applied), its egress allowed to
// loopback only. Heartbeat checks are passive: their verdict follows the pings the run sent.

export type Verdict = 'up' | 'down' | 'pending' | 'paused' | 'none';

export interface SvcVerdict {
  verdict: Verdict;
  message: string;
}

const EGRESS = createEgressPolicy({ denyPrivate: false, allow: ['127.0.0.0/8', '::1'] });

/** When the run pinged a heartbeat check, and when its deadline started. */
export interface PushTimes {
  armedAt: number;
  lastPingAt: number | null;
}

export async function svcVerdict(check: CheckDefinition, secret: string | undefined, push: PushTimes, now: number): Promise<SvcVerdict> {
  if (!check.enabled) return { verdict: 'paused', message: 'paused' };
  if (check.type === 'heartbeat') {
    const late = heartbeatVerdict({ ...push, runStartedAt: null }, check.config, now);
    const invert = check.config.invert === true;
    if (late) return { verdict: invert ? 'up' : 'down', message: late.message };
    if (push.lastPingAt === null) return { verdict: 'pending', message: 'no ping yet, within the period' };
    return { verdict: invert ? 'down' : 'up', message: 'pinged' };
  }
  const secrets = new Map(referencedSecrets(check.config).map((name) => [name, secret ?? '']));
  const prepared = substituteSecrets(check, secrets);
  const result = await runProbe(prepared.check, { egress: EGRESS, secretValues: prepared.secretValues });
  return { verdict: result.status === 'down' ? 'down' : 'up', message: result.message };
}
