import { z } from 'zod';
import { notFound, validationFailed } from '../errors.js';
import { unknownQueryParameters } from '../http/pagination.js';
import { route, type RouteSpec } from '../http/route.js';
import { createWindow, deleteWindow, getWindow, listWindows, updateWindow } from '../maintenance/window-store.js';
import { CONTROL_CHARACTER_MESSAGE, hasControlCharacter, hasTextControlCharacter, TEXT_CONTROL_CHARACTER_MESSAGE } from '../plain-text.js';
import { orgOf } from './checks.js';

const title = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .refine((text) => !hasControlCharacter(text), CONTROL_CHARACTER_MESSAGE);
const description = z
  .string()
  .max(4000)
  .refine((text) => !hasTextControlCharacter(text), TEXT_CONTROL_CHARACTER_MESSAGE)
  .nullable();
const time = z.iso.datetime({ offset: true, message: 'must be an ISO-8601 time with a zone (2026-03-29T02:00:00+02:00 or ...Z)' });
const recurrence = z
  .string()
  .trim()
  .min(1)
  .max(500)
  .refine((text) => !hasControlCharacter(text), CONTROL_CHARACTER_MESSAGE)
  .nullable();
const timezone = z.string().min(1).max(64);
const checks = z
  .array(z.string().min(1).max(63))
  .max(1000)
  .refine((list) => new Set(list).size === list.length, 'lists a check twice');
const labels = z
  .record(z.string().min(1).max(63), z.string().max(200))
  .refine((map) => Object.keys(map).length <= 20, 'at most 20 labels')
  .refine((map) => Object.entries(map).every(([key, value]) => !hasControlCharacter(key) && !hasControlCharacter(value)), CONTROL_CHARACTER_MESSAGE);

const createBody = z.strictObject({
  title,
  description: description.optional(),
  startsAt: time,
  endsAt: time,
  recurrence: recurrence.optional(),
  timezone: timezone.optional(),
  allChecks: z.boolean().optional(),
  checks: checks.optional(),
  labels: labels.optional(),
});

const patchBody = z
  .strictObject({ title, description, startsAt: time, endsAt: time, recurrence, timezone, allChecks: z.boolean(), checks, labels })
  .partial()
  .refine((changes) => Object.keys(changes).length > 0, 'send at least one field to change');

const windowNotFound = (uid: string) => notFound(`No maintenance window ${uid} in this organization.`);

/** Maintenance windows: when the checks they cover are under maintenance. */
export const maintenanceWindowRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/orgs/:org/maintenance-windows',
    permission: 'checks:read',
    response: 'MaintenanceWindowList',
    summary:
      'List the maintenance windows in start order, each with whether it is under way and its current or next occurrence; ?check=slug keeps those covering the check, ?upcoming=true those under way or still to come.',
    async handler({ deps, auth, query }) {
      const issues = unknownQueryParameters(query, ['check', 'upcoming']);
      const upcoming = query.get('upcoming');
      if (upcoming !== null && upcoming !== 'true' && upcoming !== 'false') issues.push({ path: 'upcoming', message: 'must be true or false' });
      if (issues.length > 0) throw validationFailed(issues, 'The query is not valid.');
      const org = orgOf(auth);
      const slug = query.get('check');
      let check: { slug: string; labels: Record<string, string> } | undefined;
      if (slug !== null) {
        const row = await deps.db.kysely
          .selectFrom('checks')
          .select(['slug', 'labels'])
          .where('organization_uid', '=', org.uid)
          .where('slug', '=', slug)
          .executeTakeFirst();
        if (!row) throw notFound(`No check with slug "${slug}" in this organization.`);
        check = { slug: row.slug, labels: JSON.parse(row.labels) };
      }
      return { items: await listWindows(deps.db.kysely, org.uid, deps.clock.now(), { check, upcoming: upcoming === 'true' }) };
    },
  }),
  route({
    method: 'POST',
    path: '/orgs/:org/maintenance-windows',
    permission: 'checks:write',
    response: 'MaintenanceWindow',
    summary:
      'Create a maintenance window {title, description?, startsAt, endsAt, recurrence? (RFC 5545 RRULE), timezone? (IANA, default UTC), allChecks?, checks?: [slug], labels?: {key: value}}.',
    body: createBody,
    status: 201,
    handler: async ({ deps, auth, body }) =>
      createWindow(
        deps.db.kysely,
        orgOf(auth).uid,
        {
          title: body.title,
          description: body.description ?? null,
          startsAt: body.startsAt,
          endsAt: body.endsAt,
          recurrence: body.recurrence ?? null,
          timezone: body.timezone ?? 'UTC',
          allChecks: body.allChecks ?? false,
          checks: body.checks ?? [],
          labels: body.labels ?? {},
        },
        deps.clock.now(),
      ),
  }),
  route({
    method: 'GET',
    path: '/orgs/:org/maintenance-windows/:uid',
    permission: 'checks:read',
    response: 'MaintenanceWindow',
    summary: 'One maintenance window.',
    async handler({ deps, auth, params }) {
      const window = await getWindow(deps.db.kysely, orgOf(auth).uid, params.uid, deps.clock.now());
      if (!window) throw windowNotFound(params.uid);
      return window;
    },
  }),
  route({
    method: 'PATCH',
    path: '/orgs/:org/maintenance-windows/:uid',
    permission: 'checks:write',
    response: 'MaintenanceWindow',
    summary: 'Change a maintenance window; `checks` and `labels` replace the whole list, `recurrence: null` makes it happen once.',
    body: patchBody,
    async handler({ deps, auth, params, body }) {
      const window = await updateWindow(deps.db.kysely, orgOf(auth).uid, params.uid, body, deps.clock.now());
      if (!window) throw windowNotFound(params.uid);
      return window;
    },
  }),
  route({
    method: 'DELETE',
    path: '/orgs/:org/maintenance-windows/:uid',
    permission: 'checks:write',
    summary: 'Delete a maintenance window; the checks it covered follow their results again from their next run.',
    async handler({ deps, auth, params }) {
      if (!(await deleteWindow(deps.db.kysely, orgOf(auth).uid, params.uid))) throw windowNotFound(params.uid);
    },
  }),
];
