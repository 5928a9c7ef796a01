import { z } from 'zod';
import type { OrgAuthContext } from '../access/auth-context.js';
import { changeCheck, createValidCheck, removeCheck, requireCommittedCheck, validCheck } from '../checks/check-commands.js';
import { parseCheckListQuery } from '../checks/check-list-query.js';
import { listChecks } from '../checks/check-store.js';
import { checkView } from '../checks/check-rows.js';
import type { Organization } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { missingReferences } from '../secrets/secret-store.js';
import { checkViewsWithRuntime, pingUrlsFor, seriesByUid, statesOf, withStates } from '../runner/check-runtime.js';
import { recentLatenciesOf } from '../runner/list-latencies.js';
import { uptime24hOf } from '../runner/list-uptime.js';
import { route, type RouteSpec } from '../http/route.js';

/** The organization of an org route; the mounting function has resolved it before the handler. */
export const orgOf = (auth: OrgAuthContext): Organization => auth.org;

/**
 * A check as answered after a write, with `missingSecrets` when it refers to secrets the
 * organization does not have (it is stored all the same: an import sets them afterwards).
 */
async function withMissingSecrets<T extends { config: unknown }>(deps: AppDeps, orgUid: string, check: T): Promise<T & { missingSecrets?: string[] }> {
  const missing = await missingReferences(deps, orgUid, check);
  return missing.length > 0 ? { ...check, missingSecrets: missing } : check;
}

/** Checks of an organization: list, validate, create, read, change, delete. */
export const checkRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/orgs/:org/checks',
    permission: 'checks:read',
    response: 'CheckPage',
    summary:
      'List checks, each with state, stateSince and lastResult: ?label=key=value (repeatable, at most 20; more answer 400), ?type=, ?state=, ' +
      '?order=created|attention|name (creation order by default; attention: down, degraded, pending, up, paused, then by slug; name: by slug), ' +
      '?include=uptime24h,latencies (24-hour uptime; the last 20 response times, oldest first), ?limit= (1-500, default 50), ?cursor=.',
    async handler({ deps, auth, query }) {
      const parsed = parseCheckListQuery(query);
      const page = await listChecks(deps.db.kysely, orgOf(auth).uid, parsed);
      // One read of the state rows serves the views and both includes.
      const states = await statesOf(
        deps.db.kysely,
        page.items.map((check) => check.uid),
        deps.clock.now().getTime(),
      );
      const views = pingUrlsFor(auth.role, withStates(page.items, states, checkView, deps.config.baseUrl));
      const [uptimes, latencies] = await Promise.all([
        parsed.includeUptime24h ? uptime24hOf(deps, seriesByUid(states)) : undefined,
        parsed.includeLatencies ? recentLatenciesOf(deps.db.kysely, seriesByUid(states), deps.clock.now().getTime()) : undefined,
      ]);
      const items = views.map((view, at) => {
        const uid = page.items[at].uid;
        return { ...view, ...(uptimes ? { uptime24h: uptimes.get(uid) ?? null } : {}), ...(latencies ? { recentLatencies: latencies.get(uid) ?? [] } : {}) };
      });
      return { items, nextCursor: page.nextCursor };
    },
  }),
  route({
    method: 'POST',
    path: '/orgs/:org/checks',
    permission: 'checks:write',
    response: 'Check',
    summary: 'Create a check (the slug is derived from the name when absent); 409 SLUG_TAKEN when in use.',
    // Validated by the catalog, which reports every problem with its field path.
    bodyType: 'CheckInput',
    body: z.unknown(),
    status: 201,
    async handler({ deps, auth, body }) {
      const org = orgOf(auth);
      const [view] = await checkViewsWithRuntime(deps, [
        await createValidCheck(deps.db.kysely, org.uid, body, deps.clock.now(), deps.config.organizations.checksLimit),
      ]);
      return withMissingSecrets(deps, org.uid, view);
    },
  }),
  route({
    method: 'POST',
    path: '/orgs/:org/checks/validate',
    // Writes nothing, but exists only to prepare a write, so it needs what the write needs.
    permission: 'checks:write',
    response: 'CheckValidation',
    summary:
      'Validate a candidate check without writing: the normalised check and the secrets it refers to that are not set (missingSecrets), or every problem.',
    bodyType: 'CheckInput',
    body: z.unknown(),
    async handler({ deps, auth, body }) {
      const check = validCheck(body);
      return { valid: true, check, missingSecrets: await missingReferences(deps, orgOf(auth).uid, check) };
    },
  }),
  route({
    method: 'GET',
    path: '/orgs/:org/checks/:slug',
    permission: 'checks:read',
    response: 'Check',
    summary: 'One check, with state, stateSince, lastResult and (heartbeat, for roles that may change checks) pingUrl.',
    async handler({ deps, auth, params }) {
      const [view] = pingUrlsFor(auth.role, await checkViewsWithRuntime(deps, [await requireCommittedCheck(deps.db, orgOf(auth).uid, params.slug)]));
      return view;
    },
  }),
  route({
    method: 'PATCH',
    path: '/orgs/:org/checks/:slug',
    permission: 'checks:write',
    response: 'Check',
    summary: 'Change a check with a JSON Merge Patch (null removes a field); the result is validated as a whole.',
    bodyType: 'CheckPatch',
    body: z.unknown(),
    async handler({ deps, auth, params, body }) {
      const org = orgOf(auth);
      const [view] = await checkViewsWithRuntime(deps, [await changeCheck(deps.db.kysely, org.uid, params.slug, body, deps.clock.now())]);
      return withMissingSecrets(deps, org.uid, view);
    },
  }),
  route({
    method: 'DELETE',
    path: '/orgs/:org/checks/:slug',
    permission: 'checks:write',
    summary: 'Delete a check; it leaves the status pages that listed it, and its incidents keep its slug.',
    async handler({ deps, auth, params }) {
      await removeCheck(deps.db.kysely, orgOf(auth).uid, params.slug, deps.clock.now());
    },
  }),
];
