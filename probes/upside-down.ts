import type { ProbeResult } from './probe.js';

/**
 * A verdict in upside-down mode (a check's `invert`): a success counts as down and a failure as
 * up, and the message says so. The probes' results, a heartbeat's deadline and its pings all turn
 * over the same way.
 */
export function upsideDown(ok: boolean, message: string): { ok: boolean; message: string } {
  return { ok: !ok, message: ok ? `upside-down: ${message}` : `upside-down: ${message} (counts as up)` };
}

/** An up or down result turned over by `upsideDown`; a degraded one counts as up. */
export function upsideDownResult(result: ProbeResult): ProbeResult {
  const turned = upsideDown(result.status !== 'down', result.message);
  return { ...result, status: turned.ok ? 'up' : 'down', message: turned.message };
}
