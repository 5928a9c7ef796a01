import { z } from 'zod';
import { getCheck } from '../checks/check-store.js';
import { validationFailed, notFound } from '../errors.js';
import { parsePage, unknownQueryParameters, type PageRequest } from '../http/pagination.js';
import {
  advanceIncidentByMember,
  getIncident,
  INCIDENT_STATUSES,
  listIncidents,
  openIncidentByMember,
  type IncidentStatus,
} from '../incidents/incident-store.js';
import { orgOf } from './checks.js';
import { route, type RouteSpec } from '../http/route.js';
import { CONTROL_CHARACTER_MESSAGE, hasControlCharacter } from '../plain-text.js';

function parseListQuery(query: URLSearchParams): PageRequest & { status?: IncidentStatus } {
  const issues = unknownQueryParameters(query, ['status', 'limit', 'cursor']);
  const status = query.get('status') ?? undefined;
  if (status !== undefined && !INCIDENT_STATUSES.includes(status as IncidentStatus)) {
    issues.push({ path: 'status', message: `must be one of ${INCIDENT_STATUSES.join(', ')}` });
  }
  if (issues.length > 0) throw validationFailed(issues, 'The query is not valid.');
  const page = parsePage(query);
  return { status: status as IncidentStatus | undefined, limit: page.limit, cursor: page.cursor };
}

const incidentNotFound = (uid: string) => notFound(`No incident "${uid}" in this organization.`);

/** Incidents: open one by hand, list, read, acknowledge, resolve. */
export const incidentRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/orgs/:org/incidents',
    permission: 'incidents:read',
    response: 'IncidentPage',
    summary: 'List incidents, newest first: ?status=open|acknowledged|resolved, ?limit= (1-200, default 50), ?cursor=.',
    handler: async ({ deps, auth, query }) => listIncidents(deps.db.kysely, orgOf(auth).uid, parseListQuery(query)),
  }),
  route({
    method: 'POST',
    path: '/orgs/:org/incidents',
    permission: 'incidents:write',
    response: 'Incident',
    summary: 'Open an incident by hand, optionally about a check.',
    body: z.strictObject({
      title: z
        .string()
        .trim()
        .min(1)
        .max(200)
        .refine((text) => !hasControlCharacter(text), CONTROL_CHARACTER_MESSAGE),
      checkSlug: z.string().min(1).max(63).optional(),
    }),
    status: 201,
    async handler({ deps, auth, body }) {
      const org = orgOf(auth);
      let check: { uid: string; slug: string } | undefined;
      if (body.checkSlug !== undefined) {
        check = await getCheck(deps.db.kysely, org.uid, body.checkSlug);
        if (!check) throw validationFailed([{ path: 'checkSlug', message: `no check with slug "${body.checkSlug}" in this organization` }]);
      }
      return openIncidentByMember(deps.db.kysely, org.uid, { title: body.title, check, openedBy: auth.user.uid }, deps.clock.now());
    },
  }),
  route({
    method: 'GET',
    path: '/orgs/:org/incidents/:uid',
    permission: 'incidents:read',
    response: 'Incident',
    summary: 'One incident.',
    async handler({ deps, auth, params }) {
      const incident = await getIncident(deps.db.kysely, orgOf(auth).uid, params.uid);
      if (!incident) throw incidentNotFound(params.uid);
      return incident;
    },
  }),
  route({
    method: 'POST',
    path: '/orgs/:org/incidents/:uid/acknowledge',
    permission: 'incidents:write',
    response: 'Incident',
    summary: 'Acknowledge an open incident (records who and when); repeating it changes nothing.',
    handler: async ({ deps, auth, params }) =>
      advanceIncidentByMember(deps.db.kysely, orgOf(auth).uid, params.uid, 'acknowledge', auth.user.uid, deps.clock.now()),
  }),
  route({
    method: 'POST',
    path: '/orgs/:org/incidents/:uid/resolve',
    permission: 'incidents:write',
    response: 'Incident',
    summary: 'Resolve an open or acknowledged incident (records who and when); repeating it changes nothing.',
    handler: async ({ deps, auth, params }) => advanceIncidentByMember(deps.db.kysely, orgOf(auth).uid, params.uid, 'resolve', auth.user.uid, deps.clock.now()),
  }),
];
