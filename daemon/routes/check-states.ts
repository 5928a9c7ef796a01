import { requireCommittedCheck } from '../checks/check-commands.js';
import { validationFailed } from '../errors.js';
import { parsePage, unknownQueryParameters } from '../http/pagination.js';
import { listStateChanges } from '../runner/state-changes.js';
import { countCheckStates } from '../runner/state-counts.js';
import { orgOf } from './checks.js';
import { route, type RouteSpec } from '../http/route.js';

/** The organization's health at a glance: checks per state, and the state changes of its checks. */
export const checkStateRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/orgs/:org/check-states',
    permission: 'checks:read',
    response: 'CheckStateCounts',
    summary: 'How many checks are in each state, counted by the database: {total, counts: {pending, up, degraded, down, paused}}.',
    async handler({ deps, auth, query }) {
      const issues = unknownQueryParameters(query, []);
      if (issues.length > 0) throw validationFailed(issues, 'The query is not valid.');
      return countCheckStates(deps.db.kysely, orgOf(auth).uid);
    },
  }),
  route({
    method: 'GET',
    path: '/orgs/:org/state-changes',
    permission: 'checks:read',
    response: 'StateChangePage',
    summary:
      'State changes of the checks, newest first: ?check=<slug> keeps those of one check; ?limit= (1-200, default 50), ?cursor=; {items: [{uid, checkSlug, from, to, message, incidentUid, at}], nextCursor}.',
    async handler({ deps, auth, query }) {
      const issues = unknownQueryParameters(query, ['check', 'limit', 'cursor']);
      if (issues.length > 0) throw validationFailed(issues, 'The query is not valid.');
      const page = parsePage(query);
      const slug = query.get('check');
      const checkUid = slug ? (await requireCommittedCheck(deps.db, orgOf(auth).uid, slug)).uid : undefined;
      return listStateChanges(deps.db.kysely, orgOf(auth).uid, { ...page, checkUid });
    },
  }),
];
