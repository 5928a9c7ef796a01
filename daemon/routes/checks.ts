import { z } from 'zod';
import type { AuthContext } from '../access/auth-context.js';
import { changeCheck, createValidCheck, removeCheck, requireCommittedCheck, validCheck } from '../checks/check-commands.js';
import { parseCheckListQuery } from '../checks/check-list-query.js';
import { checkView } from '../checks/check-rows.js';
import { listChecks } from '../checks/check-store.js';
import type { Organization } from '../db/schema.js';
import { route, type RouteSpec } from './route.js';

/** The organization of an org route; the mounting function has resolved it before the handler. */
export const orgOf = (auth: AuthContext): Organization => auth.org!;

/** Checks of an organization: list, validate, create, read, change, delete. */
export const checkRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/orgs/:org/checks',
    permission: 'checks:read',
    summary: 'List checks in creation order: ?label=key=value (repeatable), ?type=, ?limit= (1-500, default 50), ?cursor=.',
    async handler({ deps, auth, query }) {
      const page = await listChecks(deps.db.kysely, orgOf(auth).uid, parseCheckListQuery(query));
      return { items: page.items.map(checkView), nextCursor: page.nextCursor };
    },
  }),
  route({
    method: 'POST',
    path: '/orgs/:org/checks',
    permission: 'checks:write',
    summary: 'Create a check (the slug is derived from the name when absent); 409 SLUG_TAKEN when in use.',
    // Validated by the catalog, which reports every problem with its field path.
    body: z.unknown(),
    status: 201,
    async handler({ deps, auth, body }) {
      return checkView(await createValidCheck(deps.db.kysely, orgOf(auth).uid, body, deps.clock.now()));
    },
  }),
  route({
    method: 'POST',
    path: '/orgs/:org/checks/validate',
    // Writes nothing, but exists only to prepare a write, so it needs what the write needs.
    permission: 'checks:write',
    summary: 'Validate a candidate check without writing: the normalised check, or every problem.',
    body: z.unknown(),
    handler: async ({ body }) => ({ valid: true, check: validCheck(body) }),
  }),
  route({
    method: 'GET',
    path: '/orgs/:org/checks/:slug',
    permission: 'checks:read',
    summary: 'One check.',
    async handler({ deps, auth, params }) {
      return checkView(await requireCommittedCheck(deps.db, orgOf(auth).uid, params.slug));
    },
  }),
  route({
    method: 'PATCH',
    path: '/orgs/:org/checks/:slug',
    permission: 'checks:write',
    summary: 'Change a check with a JSON Merge Patch (null removes a field); the result is validated as a whole.',
    body: z.unknown(),
    async handler({ deps, auth, params, body }) {
      return checkView(await changeCheck(deps.db.kysely, orgOf(auth).uid, params.slug, body, deps.clock.now()));
    },
  }),
  route({
    method: 'DELETE',
    path: '/orgs/:org/checks/:slug',
    permission: 'checks:write',
    summary: 'Delete a check; it leaves the status pages that listed it, and its incidents keep its slug.',
    async handler({ deps, auth, params }) {
      await removeCheck(deps.db.kysely, orgOf(auth).uid, params.slug);
    },
  }),
];
