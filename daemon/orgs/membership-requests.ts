import type { OwnMembershipRequest } from '../../contract/responses.js';
import { recordAudit } from '../audit/audit-log.js';
import { joinOrganizationIn, lockOrganization, memberLimitReached } from '../access/membership.js';
import { requirePermission } from '../access/authorize.js';
import type { Role } from '../access/permissions.js';
import { newId } from '../db/ids.js';
import type { AppDeps } from '../deps.js';
import { conflict, notFound } from '../errors.js';
import { toPage, type Page, type PageRequest } from '../http/pagination.js';
import type { MembershipRequest as ContractMembershipRequest } from '../../contract/responses.js';
import { inTransaction } from '../db/in-transaction.js';

type Deps = Pick<AppDeps, 'db' | 'clock'>;

export type MembershipRequestStatus = 'pending' | 'approved' | 'rejected' | 'withdrawn';
export type MembershipRequestVia = 'request' | 'email_pattern' | 'team_chat';

/** A request as admins see it. */
export type MembershipRequestView = ContractMembershipRequest;

/**
 * Files a request to join: an admin approves or rejects it. At most one is pending per person
 * and organization; asking again while one is pending, or as a member, changes nothing.
 */
export async function requestMembership(
  deps: Deps,
  input: { organizationUid: string; userUid: string; via: MembershipRequestVia; message: string | null },
): Promise<'pending' | 'already-pending' | 'already-member'> {
  return inTransaction(deps.db.kysely, async (trx) => {
    await lockOrganization(trx, input.organizationUid);
    const member = await trx
      .selectFrom('members')
      .select('role')
      .where('organization_uid', '=', input.organizationUid)
      .where('user_uid', '=', input.userUid)
      .executeTakeFirst();
    if (member) return 'already-member' as const;
    const pending = await trx
      .selectFrom('membership_requests')
      .select('uid')
      .where('organization_uid', '=', input.organizationUid)
      .where('user_uid', '=', input.userUid)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (pending) return 'already-pending' as const;
    const now = deps.clock.now();
    const uid = newId(now.getTime());
    await trx
      .insertInto('membership_requests')
      .values({
        uid,
        organization_uid: input.organizationUid,
        user_uid: input.userUid,
        message: input.message,
        via: input.via,
        status: 'pending',
        decided_by_uid: null,
        decided_at: null,
        created_at: now.toISOString(),
      })
      .execute();
    await recordAudit(trx, deps.clock, {
      organizationUid: input.organizationUid,
      kind: 'membership_request.created',
      actorUid: input.userUid,
      targetUid: input.userUid,
      data: { requestUid: uid, via: input.via },
    });
    return 'pending' as const;
  });
}

/** One page of an organization's requests, newest first; `status` undefined lists all. */
export async function listMembershipRequests(
  deps: Pick<AppDeps, 'db'>,
  organizationUid: string,
  status: MembershipRequestStatus | undefined,
  page: PageRequest,
): Promise<Page<MembershipRequestView>> {
  let query = deps.db.kysely
    .selectFrom('membership_requests')
    .innerJoin('users', 'users.uid', 'membership_requests.user_uid')
    .selectAll('membership_requests')
    .select(['users.email', 'users.name'])
    .where('membership_requests.organization_uid', '=', organizationUid);
  if (status) query = query.where('membership_requests.status', '=', status);
  if (page.cursor) query = query.where('membership_requests.uid', '<', page.cursor);
  const rows = await query
    .orderBy('membership_requests.uid', 'desc')
    .limit(page.limit + 1)
    .execute();
  return toPage(rows, page.limit, (row) => ({
    uid: row.uid,
    user: { uid: row.user_uid, email: row.email, name: row.name },
    message: row.message,
    via: row.via,
    status: row.status,
    decidedBy: row.decided_by_uid,
    decidedAt: row.decided_at,
    createdAt: row.created_at,
  }));
}

/**
 * Approves (the requester joins with `role`, within the member limit) or rejects a pending
 * request. 404 for an unknown request, 409 `ALREADY_DECIDED` for one decided before.
 */
export async function decideMembershipRequest(
  deps: Deps,
  input: { organizationUid: string; requestUid: string; actorUid: string; actorRole: Role; decision: 'approve' | 'reject'; role?: Role },
): Promise<{ status: 'approved' | 'rejected'; userUid: string; role?: Role }> {
  const role = input.role ?? 'user';
  if (input.decision === 'approve' && role === 'owner') requirePermission(input.actorRole, 'members:manage-owners');
  return inTransaction(deps.db.kysely, async (trx) => {
    await lockOrganization(trx, input.organizationUid);
    const request = await trx
      .selectFrom('membership_requests')
      .selectAll()
      .where('uid', '=', input.requestUid)
      .where('organization_uid', '=', input.organizationUid)
      .executeTakeFirst();
    if (!request) throw notFound('Membership request not found.');
    if (request.status !== 'pending') throw conflict('ALREADY_DECIDED', `This membership request was already ${request.status}.`);
    const now = deps.clock.now().toISOString();
    const status = input.decision === 'approve' ? ('approved' as const) : ('rejected' as const);
    await trx.updateTable('membership_requests').set({ status, decided_by_uid: input.actorUid, decided_at: now }).where('uid', '=', request.uid).execute();
    await recordAudit(trx, deps.clock, {
      organizationUid: input.organizationUid,
      kind: status === 'approved' ? 'membership_request.approved' : 'membership_request.rejected',
      actorUid: input.actorUid,
      targetUid: request.user_uid,
      data: { requestUid: request.uid, ...(status === 'approved' ? { role } : {}) },
    });
    if (status === 'rejected') return { status, userUid: request.user_uid };
    const joined = await joinOrganizationIn(trx, deps.clock, {
      organizationUid: input.organizationUid,
      userUid: request.user_uid,
      role,
      via: 'membership_request',
      actorUid: input.actorUid,
    });
    // Rolls the approval back with it: the request stays pending until there is room.
    if (joined.status === 'member-limit') throw memberLimitReached(joined.limit);
    return { status, userUid: request.user_uid, role: joined.role };
  });
}

/** A request as its requester sees it: which organization, and where it stands. */
export type OwnMembershipRequestView = OwnMembershipRequest;

/** One page of the caller's own requests, newest first; `status` undefined lists all. */
export async function listOwnMembershipRequests(
  deps: Pick<AppDeps, 'db'>,
  userUid: string,
  status: MembershipRequestStatus | undefined,
  page: PageRequest,
): Promise<Page<OwnMembershipRequestView>> {
  let query = deps.db.kysely
    .selectFrom('membership_requests')
    .innerJoin('organizations', 'organizations.uid', 'membership_requests.organization_uid')
    .selectAll('membership_requests')
    .select('organizations.slug')
    .where('membership_requests.user_uid', '=', userUid);
  if (status) query = query.where('membership_requests.status', '=', status);
  if (page.cursor) query = query.where('membership_requests.uid', '<', page.cursor);
  const rows = await query
    .orderBy('membership_requests.uid', 'desc')
    .limit(page.limit + 1)
    .execute();
  return toPage(rows, page.limit, (row) => ({
    uid: row.uid,
    org: row.slug,
    message: row.message,
    via: row.via,
    status: row.status,
    decidedAt: row.decided_at,
    createdAt: row.created_at,
  }));
}

/**
 * The requester withdraws their own pending request: it stays on record as `withdrawn`. 404 for
 * a request that is not theirs (alike whether or not it exists), 409 `ALREADY_DECIDED` for one
 * no longer pending.
 */
export async function withdrawMembershipRequest(deps: Deps, input: { requestUid: string; userUid: string }): Promise<void> {
  await inTransaction(deps.db.kysely, async (trx) => {
    const request = await trx
      .selectFrom('membership_requests')
      .selectAll()
      .where('uid', '=', input.requestUid)
      .where('user_uid', '=', input.userUid)
      .executeTakeFirst();
    if (!request) throw notFound('Membership request not found.');
    await lockOrganization(trx, request.organization_uid);
    // Re-read under the lock: an admin may have decided it meanwhile.
    const current = await trx.selectFrom('membership_requests').select('status').where('uid', '=', request.uid).executeTakeFirstOrThrow();
    if (current.status !== 'pending') throw conflict('ALREADY_DECIDED', `This membership request was already ${current.status}.`);
    const now = deps.clock.now().toISOString();
    await trx
      .updateTable('membership_requests')
      .set({ status: 'withdrawn', decided_by_uid: input.userUid, decided_at: now })
      .where('uid', '=', request.uid)
      .execute();
    await recordAudit(trx, deps.clock, {
      organizationUid: request.organization_uid,
      kind: 'membership_request.withdrawn',
      actorUid: input.userUid,
      targetUid: input.userUid,
      data: { requestUid: request.uid },
    });
  });
}
