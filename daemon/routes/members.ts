import { z } from 'zod';
import { ROLES } from '../access/permissions.js';
import { changeMemberRole, listMembers, removeMember } from '../orgs/members.js';
import { route, type RouteSpec } from './route.js';

/** The organization's members: list, change a role, remove. */
export const memberRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/orgs/:org/members',
    permission: 'members:read',
    summary: 'The members and their roles.',
    handler: async ({ deps, auth }) => ({ items: await listMembers(deps, auth.org!.uid) }),
  }),
  route({
    method: 'PATCH',
    path: '/orgs/:org/members/:userUid',
    permission: 'members:manage',
    summary: "Change a member's role (granting or revoking owner: owner only; the last owner stays).",
    body: z.object({ role: z.enum(ROLES) }),
    handler: async ({ deps, auth, params, body }) =>
      changeMemberRole(deps, { organizationUid: auth.org!.uid, actorUid: auth.user.uid, userUid: params.userUid, role: body.role }),
  }),
  route({
    method: 'DELETE',
    path: '/orgs/:org/members/:userUid',
    permission: 'members:manage',
    summary: 'Remove a member (an owner: owner only; never the last owner); their tokens for it are revoked.',
    async handler({ deps, auth, params }) {
      await removeMember(deps, { organizationUid: auth.org!.uid, actorUid: auth.user.uid, userUid: params.userUid });
    },
  }),
];
