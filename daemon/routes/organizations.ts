import { z } from 'zod';
import { requirePermission } from '../access/authorize.js';
import { requireSession } from '../access/session-only.js';
import { emailPatternProblem } from '../orgs/email-pattern.js';
import {
  createOrganization,
  deleteOrganization,
  listMyOrganizations,
  organizationView,
  orgNameField,
  orgSlugField,
  updateOrganization,
} from '../orgs/organizations.js';
import { route, type RouteSpec } from '../http/route.js';

const patchBody = z
  .object({
    name: orgNameField.optional(),
    memberLimit: z.number().int('must be a whole number').min(1, 'must be at least 1').max(1_000_000).nullable().optional(),
    registrationEmailPattern: z
      .string()
      .nullable()
      .optional()
      .superRefine((value, ctx) => {
        const problem = typeof value === 'string' ? emailPatternProblem(value) : undefined;
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }),
  })
  .strict()
  .refine((body) => Object.keys(body).length > 0, { message: 'name, memberLimit or registrationEmailPattern is required' });

/** Organizations: create, list mine, read, change settings, rename and delete. */
export const organizationRoutes: RouteSpec[] = [
  route({
    method: 'POST',
    path: '/orgs',
    permission: 'authenticated',
    response: 'Organization',
    summary: 'Create an organization; the caller becomes its owner.',
    body: z.object({ slug: orgSlugField, name: orgNameField }),
    status: 201,
    async handler({ deps, auth, body }) {
      requireSession(auth, 'Creating an organization');
      const org = await createOrganization(deps, auth.user, body);
      return organizationView(deps, org, 'owner');
    },
  }),
  route({
    method: 'GET',
    path: '/orgs',
    permission: 'authenticated',
    response: 'OrganizationList',
    summary: "The caller's organizations (for an access token, its own organization).",
    async handler({ deps, auth }) {
      const items = await listMyOrganizations(deps, auth.user.uid);
      return { items: auth.token ? items.filter((org) => org.uid === auth.token!.organizationUid) : items };
    },
  }),
  route({
    method: 'GET',
    path: '/orgs/:org',
    permission: 'organization:read',
    response: 'Organization',
    summary: 'The organization, its settings and the caller’s role.',
    handler: async ({ deps, auth }) => organizationView(deps, auth.org, auth.role),
  }),
  route({
    method: 'PATCH',
    path: '/orgs/:org',
    permission: 'organization:settings',
    response: 'Organization',
    summary: 'Change the member limit or the registration e-mail pattern (admin), or rename (owner).',
    body: patchBody,
    async handler({ deps, auth, body }) {
      if (body.name !== undefined && body.name !== auth.org.name) requirePermission(auth.role, 'organization:rename');
      const org = await updateOrganization(deps, auth.org, auth.user.uid, body);
      // A pattern sent is now the stored one (written, or found equal), so it is not read again.
      return organizationView(deps, org, auth.role, body.registrationEmailPattern);
    },
  }),
  route({
    method: 'DELETE',
    path: '/orgs/:org',
    permission: 'organization:delete',
    summary: 'Delete the organization and everything it owns (owner).',
    async handler({ deps, auth }) {
      await deleteOrganization(deps, auth.org, auth.user.uid);
      deps.logger.info({ org: auth.org.slug, actor: auth.user.uid }, 'organization deleted');
    },
  }),
];
