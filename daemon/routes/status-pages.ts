import { z } from 'zod';
import { SLUG_PATTERN, slugify } from '../../checks/index.js';
import { notFound } from '../errors.js';
import { parsePage } from '../http/pagination.js';
import type { OrgAuthContext } from '../access/auth-context.js';
import type { AppDeps } from '../deps.js';
import { createStatusPage, deleteStatusPage, findStatusPage, getStatusPage, listStatusPages, updateStatusPage } from '../status-pages/status-page-store.js';
import { orgOf } from './checks.js';
import { route, type RouteSpec } from '../http/route.js';
import { CONTROL_CHARACTER_MESSAGE, hasControlCharacter, hasTextControlCharacter, TEXT_CONTROL_CHARACTER_MESSAGE } from '../plain-text.js';

const slug = z.string().regex(SLUG_PATTERN, 'a slug is 1 to 63 lowercase letters, digits and dashes, starting with a letter or digit');
const title = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .refine((text) => !hasControlCharacter(text), CONTROL_CHARACTER_MESSAGE);
const description = z
  .string()
  .max(2000)
  .refine((text) => !hasTextControlCharacter(text), TEXT_CONTROL_CHARACTER_MESSAGE)
  .nullable();
const checks = z
  .array(z.string().min(1).max(63))
  .max(500)
  .refine((list) => new Set(list).size === list.length, 'lists a check twice');

const createBody = z.strictObject({
  slug: slug.optional(),
  title,
  description: description.optional(),
  public: z.boolean().default(false),
  checks: checks.default([]),
});

const patchBody = z
  .strictObject({ slug, title, description, public: z.boolean(), checks })
  .partial()
  .refine((changes) => Object.keys(changes).length > 0, 'send at least one field to change');

/** The 404 for a status page slug the caller's organization has none of. */
export const pageNotFound = (slug: string) => notFound(`No status page with slug "${slug}" in this organization.`);

/**
 * The caller's organization's status page `slug` (its uid, title and public flag), for the routes
 * under `/orgs/:org/status-pages/:slug/`; 404 when the organization has no such page.
 */
export async function statusPageOf(deps: AppDeps, auth: OrgAuthContext, slug: string): Promise<{ uid: string; title: string; public: boolean }> {
  const page = await findStatusPage(deps.db.kysely, orgOf(auth).uid, slug);
  if (!page) throw pageNotFound(slug);
  return page;
}

/** Status pages: which checks an audience sees, and whether the page is public. */
export const statusPageRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/orgs/:org/status-pages',
    permission: 'status-pages:read',
    response: 'StatusPagePage',
    summary: 'List status pages in creation order: ?limit= (1-200, default 50), ?cursor=.',
    handler: async ({ deps, auth, query }) => listStatusPages(deps.db.kysely, orgOf(auth).uid, parsePage(query)),
  }),
  route({
    method: 'POST',
    path: '/orgs/:org/status-pages',
    permission: 'status-pages:write',
    response: 'StatusPage',
    summary: 'Create a status page {slug?, title, description?, public?, checks?: [check slug]}; 409 SLUG_TAKEN when in use.',
    body: createBody,
    status: 201,
    handler: async ({ deps, auth, body }) =>
      createStatusPage(
        deps.db.kysely,
        orgOf(auth).uid,
        { slug: body.slug ?? slugify(body.title), title: body.title, description: body.description ?? null, public: body.public, checks: body.checks },
        deps.clock.now(),
      ),
  }),
  route({
    method: 'GET',
    path: '/orgs/:org/status-pages/:slug',
    permission: 'status-pages:read',
    response: 'StatusPage',
    summary: 'One status page.',
    async handler({ deps, auth, params }) {
      const page = await getStatusPage(deps.db.kysely, orgOf(auth).uid, params.slug);
      if (!page) throw pageNotFound(params.slug);
      return page;
    },
  }),
  route({
    method: 'PATCH',
    path: '/orgs/:org/status-pages/:slug',
    permission: 'status-pages:write',
    response: 'StatusPage',
    summary: 'Change a status page; `checks` replaces the whole list.',
    body: patchBody,
    async handler({ deps, auth, params, body }) {
      const page = await updateStatusPage(deps.db.kysely, orgOf(auth).uid, params.slug, body, deps.clock.now());
      if (!page) throw pageNotFound(params.slug);
      return page;
    },
  }),
  route({
    method: 'DELETE',
    path: '/orgs/:org/status-pages/:slug',
    permission: 'status-pages:write',
    summary: 'Delete a status page.',
    async handler({ deps, auth, params }) {
      if (!(await deleteStatusPage(deps.db.kysely, orgOf(auth).uid, params.slug))) throw pageNotFound(params.slug);
    },
  }),
];
