import { z } from 'zod';
import { GROUP_ROLES, readGroupRoles, replaceGroupRoles } from '../orgs/group-roles.js';
import { route, type RouteSpec } from '../http/route.js';

const groupName = z.string().trim().min(1).max(256);

/** The directory group → role mapping of an organization, shared by SAML and LDAP sign-in. */
export const groupRoleRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/orgs/:org/group-roles',
    permission: 'organization:settings',
    response: 'GroupRoles',
    summary: 'The directory group → role mapping of SAML and LDAP sign-in (admin).',
    handler: async ({ deps, auth }) => ({ groupRoles: await readGroupRoles(deps, auth.org.uid) }),
  }),
  route({
    method: 'PUT',
    path: '/orgs/:org/group-roles',
    permission: 'organization:settings',
    response: 'GroupRoles',
    summary: 'Replace the group → role mapping: `{groupRoles: {"<group>": "admin" | "user" | "viewer"}}` (never owner; admin).',
    body: z.object({ groupRoles: z.record(groupName, z.enum(GROUP_ROLES)).refine((m) => Object.keys(m).length <= 500, 'at most 500 groups') }),
    async handler({ deps, auth, body }) {
      await replaceGroupRoles(deps, auth.org, auth.user.uid, body.groupRoles);
      return { groupRoles: await readGroupRoles(deps, auth.org.uid) };
    },
  }),
];
