import { z } from 'zod';
import { ROLES } from '../access/permissions.js';
import { requireSession } from '../access/session-only.js';
import { changeMemberRole, leaveOrganization, listMembers, removeMember } from '../orgs/members.js';
import { route, type RouteSpec } from '../http/route.js';

/** The organization's members: list, leave, change a role, remove. */
export const memberRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/orgs/:org/members',
    permission: 'members:read',
    response: 'MemberList',
    summary: 'The members and their roles.',
    handler: async ({ deps, auth }) => ({ items: await listMembers(deps, auth.org.uid) }),
  }),
  // Before /members/:userUid, which would otherwise take "me" for an id.
  route({
    method: 'DELETE',
    path: '/orgs/:org/members/me',
    permission: 'own-membership:leave',
    summary: 'Leave the organization (any role; not its last owner: 409 LAST_OWNER); your tokens for it are revoked.',
    async handler({ deps, auth }) {
      requireSession(auth, 'Leaving an organization');
      await leaveOrganization(deps, { organizationUid: auth.org.uid, userUid: auth.user.uid });
    },
  }),
  route({
    method: 'PATCH',
    path: '/orgs/:org/members/:userUid',
    permission: 'members:manage',
    response: 'Member',
    summary: "Change a member's role (granting or revoking owner: owner only; the last owner stays).",
    body: z.object({ role: z.enum(ROLES) }),
    handler: async ({ deps, auth, params, body }) =>
      changeMemberRole(deps, { organizationUid: auth.org.uid, actorUid: auth.user.uid, userUid: params.userUid, role: body.role }),
  }),
  route({
    method: 'DELETE',
    path: '/orgs/:org/members/:userUid',
    permission: 'members:manage',
    summary: 'Remove a member (an owner: owner only; never the last owner); their tokens for it are revoked.',
    async handler({ deps, auth, params }) {
      await removeMember(deps, { organizationUid: auth.org.uid, actorUid: auth.user.uid, userUid: params.userUid });
    },
  }),
];
