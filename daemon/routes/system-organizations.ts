import { z } from 'zod';
import { notFound } from '../errors.js';
import { grantOwnershipAsSuperAdmin } from '../orgs/members.js';
import { route, type RouteSpec } from '../http/route.js';

/** A super admin's hand on an organization it need not belong to. */
export const systemOrganizationRoutes: RouteSpec[] = [
  route({
    method: 'POST',
    path: '/system/orgs/:slug/owners',
    permission: 'superAdmin',
    response: 'Member',
    summary: 'Make a member of the organization owner {userUid}, e.g. of one left without an owner; recorded in its audit log and the server’s.',
    body: z.strictObject({ userUid: z.string().min(1).max(64) }),
    async handler({ deps, auth, params, body }) {
      const org = await deps.db.kysely.selectFrom('organizations').select(['uid', 'slug']).where('slug', '=', params.slug).executeTakeFirst();
      if (!org) throw notFound(`No organization "${params.slug}".`);
      return grantOwnershipAsSuperAdmin(deps, { organizationUid: org.uid, organizationSlug: org.slug, actorUid: auth.user.uid, userUid: body.userUid });
    },
  }),
];
