import { randomBytes } from 'node:crypto';
import type { Executor } from '../checks/check-store.js';
import { onPostgres, turnBetweenStatements } from '../db/executor.js';
import { insertRows } from '../db/insert-rows.js';
import { nextSlot } from './schedule.js';

// Every check has one check_states row (its schedule, lease, state and ping token). Rows are
// made here, for checks that lack one: by the runner as it looks for new checks, and by the API
// when it shows a check that no runner has seen yet. Checks are written by several modules
// (REST, import, MCP), so the row follows the check rather than being made by each writer; an
// import makes the rows of the heartbeats it creates itself, to keep their ping tokens.

/** A new heartbeat ping token: 128 random bits, URL-safe. */
export const newPingToken = (): string => randomBytes(16).toString('base64url');

const BATCH = 500;

/** A check that needs its state row: its uid, its interval and, for a heartbeat, the ping token it keeps. */
export interface NewState {
  uid: string;
  intervalSeconds: number;
  pingToken?: string;
}

/** Rows per insert of insertStates: one array per column on PostgreSQL, a VALUES list (15 parameters a row) on SQLite. */
const INSERT_BATCH = { sqlite: BATCH, postgres: 5000 };

/**
 * Makes the state rows of `checks`, each first due at its next slot, with its kept token or a
 * fresh one; a check that has its row already keeps it. For a writer that knows the checks it
 * just created (an import), so nothing is read back. Answers how many were made.
 */
export async function insertStates(db: Executor, nowMs: number, checks: readonly NewState[]): Promise<number> {
  const at = new Date(nowMs).toISOString();
  const size = onPostgres(db) ? INSERT_BATCH.postgres : INSERT_BATCH.sqlite;
  let made = 0;
  for (let i = 0; i < checks.length; i += size) {
    const inserted = await insertRows(
      db,
      'check_states',
      checks.slice(i, i + size).map((check) => ({
        check_uid: check.uid,
        next_run_at: nextSlot(check.uid, check.intervalSeconds, nowMs),
        lease_owner: null,
        state: 'pending' as const,
        state_since: at,
        fail_streak: 0,
        success_streak: 0,
        last_at: null,
        last_status: null,
        last_latency_ms: null,
        last_message: null,
        incident_uid: null,
        ping_token: check.pingToken ?? newPingToken(),
        last_ping_at: null,
        armed_at: nowMs,
      })),
    )
      .onConflict((oc) => oc.column('check_uid').doNothing())
      .executeTakeFirst();
    made += Number(inserted.numInsertedOrUpdatedRows ?? 0);
    await turnBetweenStatements(db);
  }
  return made;
}

/**
 * Creates the missing state rows of `checkUids` (or of every check when absent), each first due
 * at its next slot, with a fresh token. Safe to run on several replicas at once: a row made
 * meanwhile is kept. Answers how many were made.
 */
export async function ensureStates(db: Executor, nowMs: number, checkUids?: readonly string[]): Promise<number> {
  if (checkUids && checkUids.length > BATCH) {
    // One look-up and insert per batch of the given checks (each answers at most BATCH rows).
    let made = 0;
    for (let i = 0; i < checkUids.length; i += BATCH) {
      made += await ensureStates(db, nowMs, checkUids.slice(i, i + BATCH));
    }
    return made;
  }
  let made = 0;
  for (;;) {
    let query = db
      .selectFrom('checks as c')
      .leftJoin('check_states as s', 's.check_uid', 'c.uid')
      .select(['c.uid', 'c.interval_seconds'])
      .where('s.check_uid', 'is', null);
    if (checkUids) {
      if (checkUids.length === 0) return made;
      query = query.where('c.uid', 'in', checkUids);
    }
    const missing = await query.limit(BATCH).execute();
    if (missing.length === 0) return made;
    made += await insertStates(
      db,
      nowMs,
      missing.map((row) => ({ uid: row.uid, intervalSeconds: Number(row.interval_seconds) })),
    );
    if (checkUids || missing.length < BATCH) return made;
  }
}
