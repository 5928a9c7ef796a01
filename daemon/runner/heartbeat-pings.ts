import { withoutSecretPieces } from '../../probes/secret-pieces.js';
import type { ProbeResult } from '../../probes/probe.js';
import { upsideDownResult } from '../../probes/upside-down.js';
import type { Db } from '../db/connect.js';
import type { HeartbeatConfig } from './heartbeat.js';
import { writeRecords } from './result-writer.js';

// What a monitored job tells a heartbeat check, whichever URL it used (svc's own, or the URL
// shapes of Uptime Kuma and Healthchecks.io): success, failure (an exit status), the start of
// a run, or a log line that changes nothing.

/** The largest request body kept as a ping's message, in bytes (as Healthchecks.io keeps). */
export const PING_BODY_LIMIT = 10_000;

/** One ping as received. */
export interface PingSignal {
  kind: 'success' | 'fail' | 'start' | 'log';
  /** The exit status the job reported (0 is success), when it reported one. */
  exitStatus?: number;
  /** The text the job sent (a request body, Kuma's `msg`): kept as the result's message, never parsed. */
  message?: string;
  /** The latency the job measured itself (Kuma's `ping`), in ms; else the run's duration since its start. */
  latencyMs?: number;
}

/** What a ping did: recorded, ignored because the check is paused, or nothing (an unknown token). */
export type PingOutcome = 'recorded' | 'paused' | undefined;

/**
 * A job's text as a message: its first PING_BODY_LIMIT bytes read as UTF-8, line breaks and
 * tabs kept and other control characters dropped, user info in URLs and every part that shows
 * a piece of the ping token withheld (as the probes' messages lose their secrets).
 */
export function pingMessage(body: Uint8Array | string, token: string): string {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  // A cut in the middle of a character leaves a replacement character, which is dropped.
  const text = new TextDecoder().decode(bytes.subarray(0, PING_BODY_LIMIT)).replace(/\uFFFD$/, '');
  const clean = text
    .replace(/(\/\/)[^/\s@]*@/g, '$1')
    .replace(/[^\P{Cc}\n\t]/gu, '')
    .trim();
  // Line by line: a line that shows the token is withheld, the rest of a log stays readable.
  return clean
    .split('\n')
    .map((line) => withoutSecretPieces(line, [token]))
    .join('\n');
}

/** A ping's result: up for a success, down for a failure; the other way round when the check is upside-down. */
function resultOf(signal: PingSignal, latencyMs: number, invert: boolean): ProbeResult {
  const up = signal.kind === 'success';
  const fallback = up ? 'ok' : signal.exitStatus !== undefined ? `the job exited with status ${signal.exitStatus}` : 'the job reported a failure';
  const result: ProbeResult = { status: up ? 'up' : 'down', latencyMs, message: signal.message || fallback };
  return invert ? upsideDownResult(result) : result;
}

/**
 * Records a ping of `token`. A success or failure records a result (its latency: the job's own
 * figure, or the time since the run's start) and ends the run; a start marks the run as under
 * way; a log records nothing. `admit` is asked once the check is known and before anything is
 * written (the per-check rate limit throws its 429 there).
 */
export async function recordPing(
  db: Db,
  token: string,
  signal: PingSignal,
  nowMs: number,
  admit: (checkUid: string) => Promise<void> = async () => {},
): Promise<PingOutcome> {
  const row = await db.kysely
    .selectFrom('check_states as s')
    .innerJoin('checks as c', 'c.uid', 's.check_uid')
    .select(['s.series', 's.run_started_at', 'c.uid', 'c.organization_uid', 'c.slug', 'c.name', 'c.type', 'c.enabled', 'c.thresholds', 'c.config'])
    .where('s.ping_token', '=', token)
    .executeTakeFirst();
  if (row?.type !== 'heartbeat') return undefined;
  if (!row.enabled) return 'paused';
  await admit(row.uid);
  if (signal.kind === 'log') return 'recorded';
  if (signal.kind === 'start') {
    await db.kysely.updateTable('check_states').set({ run_started_at: nowMs }).where('series', '=', row.series).execute();
    return 'recorded';
  }
  const startedAt = row.run_started_at === null ? null : Number(row.run_started_at);
  const latencyMs = signal.latencyMs ?? (startedAt !== null && startedAt <= nowMs ? nowMs - startedAt : 0);
  await writeRecords(db, [
    {
      series: Number(row.series),
      check: { uid: row.uid, organizationUid: row.organization_uid, slug: row.slug, name: row.name, thresholds: JSON.parse(row.thresholds) },
      at: nowMs,
      result: resultOf(signal, Math.round(latencyMs), (JSON.parse(row.config) as HeartbeatConfig).invert === true),
      ping: true,
    },
  ]);
  return 'recorded';
}
