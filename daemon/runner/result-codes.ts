import type { CheckResult } from '../../contract/responses.js';
import type { ProbeStatus } from '../../probes/probe.js';

/** A result's status as stored: one small integer. */
export const STATUS_CODE: Record<ProbeStatus, number> = { up: 0, degraded: 1, down: 2 };
const STATUS_OF: ProbeStatus[] = ['up', 'degraded', 'down'];

/** The status a stored code stands for. */
export const statusOf = (code: number): ProbeStatus => STATUS_OF[code] ?? 'down';

/** The message as stored: null for the plain "ok" most successful runs report. */
export const storedMessage = (message: string): string | null => (message === 'ok' || message === '' ? null : message);

/** One result as the API answers it. */
export type ResultView = CheckResult;

/** The API's view of a stored result. */
export function resultView(row: { at: number; status: number; latency_ms: number; message: string | null }): ResultView {
  return { at: new Date(Number(row.at)).toISOString(), status: statusOf(row.status), latencyMs: row.latency_ms, message: row.message ?? 'ok' };
}
