import type { Selectable } from 'kysely';
import { can, type Role } from '../access/permissions.js';
import { checkView, type StoredCheck } from '../checks/check-rows.js';
import type { AppDeps } from '../deps.js';
import type { Executor } from '../checks/check-store.js';
import type { CheckStatesTable } from '../db/schema.js';
import { ensureStates } from './check-states.js';
import { resultView, type ResultView } from './result-codes.js';
import type { CheckState } from './state-machine.js';

/** What the engine adds to a check in the API: its state, since when, and its last result. */
export interface CheckRuntime {
  state: CheckState;
  stateSince: string;
  lastResult: ResultView | null;
  /** Heartbeat checks only: where the monitored job pings. */
  pingUrl?: string;
}

type StateRow = Selectable<CheckStatesTable>;

/** A disabled check is paused whatever it last was; one re-enabled starts over as pending. */
export function viewState(enabled: boolean, stored: CheckState | undefined): CheckState {
  if (!enabled) return 'paused';
  return !stored || stored === 'paused' ? 'pending' : stored;
}

/** The ping URL of a heartbeat token. */
export const pingUrl = (baseUrl: string, token: string): string => `${baseUrl}/api/v1/ping/${token}`;

function runtimeOf(check: StoredCheck, row: StateRow, baseUrl: string): CheckRuntime {
  const lastResult =
    row.last_at === null || row.last_status === null
      ? null
      : resultView({ at: row.last_at, status: row.last_status, latency_ms: row.last_latency_ms ?? 0, message: row.last_message });
  return {
    state: viewState(check.enabled, row.state),
    stateSince: row.state_since,
    lastResult,
    ...(check.type === 'heartbeat' ? { pingUrl: pingUrl(baseUrl, row.ping_token) } : {}),
  };
}

/** The state rows of some checks, making the missing ones (a check no runner has seen yet). */
export async function statesOf(db: Executor, checkUids: readonly string[], nowMs: number): Promise<Map<string, StateRow>> {
  const read = async () => (checkUids.length === 0 ? [] : db.selectFrom('check_states').selectAll().where('check_uid', 'in', checkUids).execute());
  let rows = await read();
  if (rows.length < checkUids.length) {
    const have = new Set(rows.map((row) => row.check_uid));
    await ensureStates(
      db,
      nowMs,
      checkUids.filter((uid) => !have.has(uid)),
    );
    rows = await read();
  }
  return new Map(rows.map((row) => [row.check_uid, row]));
}

/** Each check with its runtime fields, in the order given. */
export async function withRuntime<T extends object>(
  db: Executor,
  checks: readonly StoredCheck[],
  view: (check: StoredCheck) => T,
  options: { baseUrl: string; nowMs: number },
): Promise<Array<T & CheckRuntime>> {
  return withStates(
    checks,
    await statesOf(
      db,
      checks.map((check) => check.uid),
      options.nowMs,
    ),
    view,
    options.baseUrl,
  );
}

/** Each check with its runtime fields from state rows already read, in the order given. */
export function withStates<T extends object>(
  checks: readonly StoredCheck[],
  states: Map<string, StateRow>,
  view: (check: StoredCheck) => T,
  baseUrl: string,
): Array<T & CheckRuntime> {
  return checks.map((check) => {
    const row = states.get(check.uid);
    const runtime: CheckRuntime = row
      ? runtimeOf(check, row, baseUrl)
      : { state: viewState(check.enabled, undefined), stateSince: check.createdAt, lastResult: null };
    return { ...view(check), ...runtime };
  });
}

/** The result series of each check of `states`, by check uid. */
export const seriesByUid = (states: Map<string, StateRow>): Map<string, number> => new Map([...states].map(([uid, row]) => [uid, Number(row.series)]));

/** Checks as the API and the MCP tools show them: the definition plus state, last result and ping URL. */
export const checkViewsWithRuntime = (deps: Pick<AppDeps, 'db' | 'config' | 'clock'>, checks: StoredCheck[]) =>
  withRuntime(deps.db.kysely, checks, checkView, { baseUrl: deps.config.baseUrl, nowMs: deps.clock.now().getTime() });

/**
 * The views as `role` may see them: a ping URL records results for whoever holds it, so it is
 * shown only to roles that may change checks (never to a viewer, by REST or MCP).
 */
export function pingUrlsFor<T extends { pingUrl?: string }>(role: Role | undefined, views: T[]): T[] {
  if (role && can(role, 'checks:write')) return views;
  return views.map(({ pingUrl: _hidden, ...rest }) => rest as T);
}
