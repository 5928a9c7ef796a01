import { z } from 'zod';
import { validateCheck, validateCheckPatch, type CheckDefinition } from '../../importers/catalog/index.js';
import type { AuthContext } from '../access/auth-context.js';
import { parseCheckListQuery } from '../checks/check-list-query.js';
import { checkView, type StoredCheck } from '../checks/check-rows.js';
import { createCheck, deleteCheck, getCheck, listChecks, updateCheck } from '../checks/check-store.js';
import type { Organization } from '../db/schema.js';
import { notFound, validationFailed } from '../errors.js';
import { route, type RouteSpec } from './route.js';

/** The organization of an org route; the mounting function has resolved it before the handler. */
export const orgOf = (auth: AuthContext): Organization => auth.org!;

/** Validates a candidate check, or throws 400 VALIDATION_FAILED listing every problem. */
function validCheck(input: unknown): CheckDefinition {
  const result = validateCheck(input);
  if (!result.ok) throw validationFailed(result.issues, 'The check is not valid.');
  return result.check;
}

const checkNotFound = (slug: string) => notFound(`No check with slug "${slug}" in this organization.`);

/** The stored check's definition, as a PATCH starts from. */
function definitionOf(check: StoredCheck): CheckDefinition {
  const { uid: _uid, createdAt: _created, updatedAt: _updated, ...definition } = check;
  return definition as CheckDefinition;
}

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
      const stored = await createCheck(deps.db.kysely, orgOf(auth).uid, validCheck(body), deps.clock.now());
      return checkView(stored);
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
      const check = await getCheck(deps.db.kysely, orgOf(auth).uid, params.slug);
      if (!check) throw checkNotFound(params.slug);
      return checkView(check);
    },
  }),
  route({
    method: 'PATCH',
    path: '/orgs/:org/checks/:slug',
    permission: 'checks:write',
    summary: 'Change a check with a JSON Merge Patch (null removes a field); the result is validated as a whole.',
    body: z.unknown(),
    async handler({ deps, auth, params, body }) {
      const org = orgOf(auth);
      const existing = await getCheck(deps.db.kysely, org.uid, params.slug);
      if (!existing) throw checkNotFound(params.slug);
      const result = validateCheckPatch(definitionOf(existing), body);
      if (!result.ok) throw validationFailed(result.issues, 'The changed check is not valid.');
      const updated = await updateCheck(deps.db.kysely, org.uid, existing.uid, result.check, deps.clock.now());
      if (!updated) throw checkNotFound(params.slug);
      return checkView(updated);
    },
  }),
  route({
    method: 'DELETE',
    path: '/orgs/:org/checks/:slug',
    permission: 'checks:write',
    summary: 'Delete a check; it leaves the status pages that listed it, and its incidents keep its slug.',
    async handler({ deps, auth, params }) {
      if (!(await deleteCheck(deps.db.kysely, orgOf(auth).uid, params.slug))) throw checkNotFound(params.slug);
    },
  }),
];
