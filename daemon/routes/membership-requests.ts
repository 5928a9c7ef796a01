import { z } from 'zod';
import { ROLES } from '../access/permissions.js';
import { requireSession } from '../access/session-only.js';
import { validationFailed } from '../errors.js';
import { parsePage } from '../http/pagination.js';
import {
  decideMembershipRequest,
  listMembershipRequests,
  listOwnMembershipRequests,
  requestMembership,
  withdrawMembershipRequest,
  type MembershipRequestStatus,
} from '../orgs/membership-requests.js';
import { orgSlugField } from '../orgs/organizations.js';
import { route, type RouteSpec } from '../http/route.js';

const STATUSES = ['pending', 'approved', 'rejected', 'withdrawn', 'all'] as const;

/** The `?status=` of a request listing: pending by default; undefined for `all`. */
function statusQuery(query: URLSearchParams): MembershipRequestStatus | undefined {
  const status = query.get('status') ?? 'pending';
  if (!(STATUSES as readonly string[]).includes(status))
    throw validationFailed([{ path: 'status', message: `must be one of ${STATUSES.join(', ')}` }], 'The query is not valid.');
  return status === 'all' ? undefined : (status as MembershipRequestStatus);
}

/** Asking to join an organization, and its admins' decision. */
export const membershipRequestRoutes: RouteSpec[] = [
  route({
    method: 'POST',
    path: '/membership-requests',
    permission: 'authenticated',
    response: 'MembershipRequested',
    summary: 'Ask to join an organization; its admins decide. Answers alike whether or not it exists.',
    body: z.object({ org: z.string().max(48), message: z.string().trim().max(500).optional() }),
    status: 202,
    async handler({ deps, auth, body }) {
      requireSession(auth, 'Asking to join an organization');
      // Non-members never learn whether an organization exists, so every answer is the same.
      const answer = { org: body.org, status: 'requested' as const };
      if (!orgSlugField.safeParse(body.org).success) return answer;
      const org = await deps.db.kysely.selectFrom('organizations').select('uid').where('slug', '=', body.org).executeTakeFirst();
      if (org) await requestMembership(deps, { organizationUid: org.uid, userUid: auth.user.uid, via: 'request', message: body.message || null });
      return answer;
    },
  }),
  route({
    method: 'GET',
    path: '/orgs/:org/membership-requests',
    permission: 'membership-requests:manage',
    response: 'MembershipRequestPage',
    summary: 'Requests to join, newest first; ?status=pending (default), approved, rejected, withdrawn or all.',
    handler: async ({ deps, auth, query }) => listMembershipRequests(deps, auth.org.uid, statusQuery(query), parsePage(query)),
  }),
  route({
    method: 'POST',
    path: '/orgs/:org/membership-requests/:uid/approve',
    permission: 'membership-requests:manage',
    response: 'MembershipDecision',
    summary: 'Approve: the requester joins with the role given (default user), within the member limit.',
    body: z.object({ role: z.enum(ROLES).optional() }),
    handler: async ({ deps, auth, params, body }) =>
      decideMembershipRequest(deps, {
        organizationUid: auth.org.uid,
        requestUid: params.uid,
        actorUid: auth.user.uid,
        actorRole: auth.role,
        decision: 'approve',
        role: body.role,
      }),
  }),
  route({
    method: 'POST',
    path: '/orgs/:org/membership-requests/:uid/reject',
    permission: 'membership-requests:manage',
    response: 'MembershipDecision',
    summary: 'Reject a pending request.',
    handler: async ({ deps, auth, params }) =>
      decideMembershipRequest(deps, {
        organizationUid: auth.org.uid,
        requestUid: params.uid,
        actorUid: auth.user.uid,
        actorRole: auth.role,
        decision: 'reject',
      }),
  }),
  route({
    method: 'GET',
    path: '/membership-requests',
    permission: 'authenticated',
    response: 'OwnMembershipRequestPage',
    summary: "The caller's own requests to join, newest first; ?status=pending (default), approved, rejected, withdrawn or all.",
    async handler({ deps, auth, query }) {
      requireSession(auth, 'Listing your membership requests');
      return listOwnMembershipRequests(deps, auth.user.uid, statusQuery(query), parsePage(query));
    },
  }),
  route({
    method: 'DELETE',
    path: '/membership-requests/:uid',
    permission: 'authenticated',
    summary: 'Withdraw your own pending request to join (409 ALREADY_DECIDED once decided).',
    async handler({ deps, auth, params }) {
      requireSession(auth, 'Withdrawing a membership request');
      await withdrawMembershipRequest(deps, { requestUid: params.uid, userUid: auth.user.uid });
    },
  }),
];
