import { z } from 'zod';
import { ROLES } from '../access/permissions.js';
import { requireSession } from '../access/session-only.js';
import { emailField } from '../auth/schemas.js';
import { parsePage } from '../http/pagination.js';
import { acceptInvitation, createInvitation, listInvitations, revokeInvitation } from '../orgs/invitations.js';
import { route, type RouteSpec } from '../http/route.js';

/** Invitations by e-mail with a role: created and listed by admins, accepted by the invited person. */
export const invitationRoutes: RouteSpec[] = [
  route({
    method: 'POST',
    path: '/orgs/:org/invitations',
    permission: 'invitations:manage',
    response: 'CreatedInvitation',
    summary: 'Invite an e-mail address with a role; the link (valid 7 days) is returned once and mailed when SMTP is configured.',
    body: z.object({ email: emailField, role: z.enum(ROLES) }),
    status: 201,
    handler: async ({ deps, auth, body }) =>
      createInvitation(deps, {
        org: auth.org,
        actor: { uid: auth.user.uid, role: auth.role, name: auth.user.name, email: auth.user.email },
        email: body.email,
        role: body.role,
      }),
  }),
  route({
    method: 'GET',
    path: '/orgs/:org/invitations',
    permission: 'invitations:manage',
    response: 'InvitationPage',
    summary: 'The invitations, newest first, with their status (never their token).',
    handler: async ({ deps, auth, query }) => listInvitations(deps, auth.org.uid, parsePage(query)),
  }),
  route({
    method: 'DELETE',
    path: '/orgs/:org/invitations/:uid',
    permission: 'invitations:manage',
    summary: 'Withdraw a pending invitation.',
    async handler({ deps, auth, params }) {
      await revokeInvitation(deps, { organizationUid: auth.org.uid, uid: params.uid, actorUid: auth.user.uid });
    },
  }),
  route({
    method: 'POST',
    path: '/invitations/:token/accept',
    permission: 'authenticated',
    response: 'InvitationAccepted',
    summary: 'Accept an invitation as the signed-in account it was sent to.',
    async handler({ deps, auth, params }) {
      requireSession(auth, 'Accepting an invitation');
      return acceptInvitation(deps, auth.user, params.token);
    },
  }),
];
