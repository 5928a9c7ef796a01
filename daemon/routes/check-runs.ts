import { z } from 'zod';
import { requireCommittedCheck, validCheck } from '../checks/check-commands.js';
import { conflict, validationFailed } from '../errors.js';
import { checkViewsWithRuntime, statesOf } from '../runner/check-runtime.js';
import { newPingToken } from '../runner/check-states.js';
import { listResults, parseResultsQuery, UPTIME_WINDOWS, uptimeOf, type UptimeWindow } from '../runner/result-queries.js';
import { runCheckNow, testCheck } from '../runner/run-now.js';
import { unknownQueryParameters } from '../http/pagination.js';
import type { AppDeps } from '../deps.js';
import type { StoredCheck } from '../checks/check-rows.js';
import { orgOf } from './checks.js';
import { route, type RouteSpec } from '../http/route.js';

/** The check's result series, making its state row when no runner has seen it yet. */
async function seriesOf(deps: AppDeps, check: StoredCheck): Promise<number> {
  const state = (await statesOf(deps.db.kysely, [check.uid], deps.clock.now().getTime())).get(check.uid);
  return Number(state!.series);
}

function parseUptimeQuery(query: URLSearchParams): { window: UptimeWindow; bucket?: 'hour' | 'day' } {
  const issues = unknownQueryParameters(query, ['window', 'bucket']);
  const window = (query.get('window') ?? '24h') as UptimeWindow;
  if (!(window in UPTIME_WINDOWS)) issues.push({ path: 'window', message: `must be one of ${Object.keys(UPTIME_WINDOWS).join(', ')}` });
  const bucket = query.get('bucket') ?? undefined;
  if (bucket !== undefined && bucket !== 'hour' && bucket !== 'day') issues.push({ path: 'bucket', message: 'must be hour or day' });
  if (issues.length > 0) throw validationFailed(issues, 'The query is not valid.');
  return { window, bucket: bucket as 'hour' | 'day' | undefined };
}

/** What the engine answers about a check: its results, its uptime, a run now, a test run, the ping token. */
export const checkRunRoutes: RouteSpec[] = [
  route({
    method: 'POST',
    path: '/orgs/:org/checks/test',
    // Runs a candidate against its target: as much a write as creating it.
    permission: 'checks:write',
    response: 'CheckResult',
    summary: 'Run a candidate check once without saving it; answers the result {at, status, latencyMs, message}.',
    bodyType: 'CheckInput',
    body: z.unknown(),
    async handler({ deps, auth, body }) {
      return testCheck(deps, orgOf(auth).uid, validCheck(body));
    },
  }),
  route({
    method: 'GET',
    path: '/orgs/:org/checks/:slug/results',
    permission: 'checks:read',
    response: 'CheckResultPage',
    summary: 'Raw results, newest first: ?limit= (1-1000, default 100), ?cursor=, ?from= and ?to= (ISO-8601); {items, nextCursor}.',
    async handler({ deps, auth, params, query }) {
      const parsed = parseResultsQuery(query);
      const check = await requireCommittedCheck(deps.db, orgOf(auth).uid, params.slug);
      return listResults(deps.db.kysely, await seriesOf(deps, check), parsed, deps.clock.now().getTime());
    },
  }),
  route({
    method: 'GET',
    path: '/orgs/:org/checks/:slug/uptime',
    permission: 'checks:read',
    response: 'Uptime',
    emptyAnswer: true,
    summary: 'Uptime over ?window=24h|7d|30d|90d (default 24h) from hourly aggregates; ?bucket=hour|day adds buckets.',
    async handler({ deps, auth, params, query }) {
      const { window, bucket } = parseUptimeQuery(query);
      const check = await requireCommittedCheck(deps.db, orgOf(auth).uid, params.slug);
      const series = await seriesOf(deps, check);
      return (await uptimeOf(deps.db.kysely, [series], window, deps.clock.now().getTime(), bucket)).get(series);
    },
  }),
  route({
    method: 'POST',
    path: '/orgs/:org/checks/:slug/run',
    permission: 'checks:write',
    response: 'CheckResult',
    summary: 'Run the check now, outside its schedule; the result is recorded and answered.',
    async handler({ deps, auth, params }) {
      const org = orgOf(auth).uid;
      return runCheckNow(deps, org, await requireCommittedCheck(deps.db, org, params.slug));
    },
  }),
  route({
    method: 'POST',
    path: '/orgs/:org/checks/:slug/ping-token',
    permission: 'checks:write',
    response: 'Check',
    summary: 'Heartbeat checks: replace the ping token; the old ping URL stops working. Answers the check with its new pingUrl.',
    async handler({ deps, auth, params }) {
      const check = await requireCommittedCheck(deps.db, orgOf(auth).uid, params.slug);
      if (check.type !== 'heartbeat') throw conflict('NOT_A_HEARTBEAT', `Check "${check.slug}" is not a heartbeat check; it has no ping URL.`);
      const series = await seriesOf(deps, check);
      await deps.db.kysely.updateTable('check_states').set({ ping_token: newPingToken() }).where('series', '=', series).execute();
      const [view] = await checkViewsWithRuntime(deps, [check]);
      return view;
    },
  }),
];
