import { recordAudit } from '../audit/audit-log.js';
import { recordSystemAudit } from '../audit/system-audit-log.js';
import { countMembers, lockOrganization } from '../access/membership.js';
import { requirePermission } from '../access/authorize.js';
import type { Role } from '../access/permissions.js';
import type { AppDeps } from '../deps.js';
import { conflict, notFound } from '../errors.js';
import type { Member as ContractMember } from '../../contract/responses.js';
import type { Executor } from '../db/executor.js';
import { inTransaction } from '../db/in-transaction.js';

type Deps = Pick<AppDeps, 'db' | 'clock'>;

/** A member as the organization's members see them. */
export type MemberView = ContractMember;

/** Who is acting: the user and their current role in the organization. */
export interface Actor {
  uid: string;
  role: Role;
}

export async function listMembers(deps: Pick<AppDeps, 'db'>, organizationUid: string): Promise<MemberView[]> {
  const rows = await deps.db.kysely
    .selectFrom('members')
    .innerJoin('users', 'users.uid', 'members.user_uid')
    .select(['users.uid', 'users.email', 'users.name', 'members.role', 'members.created_at'])
    .where('members.organization_uid', '=', organizationUid)
    .orderBy('users.email')
    .execute();
  return rows.map((row) => ({ uid: row.uid, email: row.email, name: row.name, role: row.role, joinedAt: row.created_at }));
}

/**
 * The actor's role re-read under the organization's lock: the role checked when the request
 * began may have been lowered since by a concurrent change, and owner changes must not race.
 */
async function lockedActorRole(trx: Executor, organizationUid: string, actorUid: string): Promise<Role> {
  const row = await trx
    .selectFrom('members')
    .select('role')
    .where('organization_uid', '=', organizationUid)
    .where('user_uid', '=', actorUid)
    .executeTakeFirst();
  if (!row) throw notFound('Organization not found.');
  requirePermission(row.role, 'members:manage');
  return row.role;
}

const lastOwner = () => conflict('LAST_OWNER', 'An organization must keep at least one owner: make someone else owner first, or delete the organization.');

/** Revokes the member's live access tokens for the organization; how many. */
async function revokeMemberTokens(trx: Executor, organizationUid: string, userUid: string, now: string): Promise<number> {
  const revoked = await trx
    .updateTable('personal_tokens')
    .set({ revoked_at: now })
    .where('organization_uid', '=', organizationUid)
    .where('user_uid', '=', userUid)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(revoked.numUpdatedRows);
}

/**
 * Changes a member's role. Granting or revoking `owner` takes an owner; the last owner cannot be
 * demoted. Runs under the organization's lock, so two owners demoting each other cannot both win.
 */
export async function changeMemberRole(deps: Deps, input: { organizationUid: string; actorUid: string; userUid: string; role: Role }): Promise<MemberView> {
  return inTransaction(deps.db.kysely, async (trx) => {
    await lockOrganization(trx, input.organizationUid);
    const actorRole = await lockedActorRole(trx, input.organizationUid, input.actorUid);
    const member = await trx
      .selectFrom('members')
      .innerJoin('users', 'users.uid', 'members.user_uid')
      .select(['users.uid', 'users.email', 'users.name', 'members.role', 'members.created_at'])
      .where('members.organization_uid', '=', input.organizationUid)
      .where('members.user_uid', '=', input.userUid)
      .executeTakeFirst();
    if (!member) throw notFound('Member not found.');
    if (member.role === 'owner' || input.role === 'owner') requirePermission(actorRole, 'members:manage-owners');
    const view: MemberView = { uid: member.uid, email: member.email, name: member.name, role: input.role, joinedAt: member.created_at };
    if (member.role === input.role) return view;
    if (member.role === 'owner' && (await countMembers(trx, input.organizationUid, 'owner')) <= 1) throw lastOwner();
    await trx
      .updateTable('members')
      .set({ role: input.role })
      .where('organization_uid', '=', input.organizationUid)
      .where('user_uid', '=', input.userUid)
      .execute();
    await recordAudit(trx, deps.clock, {
      organizationUid: input.organizationUid,
      kind: 'member.role_changed',
      actorUid: input.actorUid,
      targetUid: input.userUid,
      data: { from: member.role, to: input.role },
    });
    return view;
  });
}

/**
 * Removes a member (an owner only by an owner; never the last owner) and revokes their access
 * tokens for this organization, so that re-admitting them later does not revive old tokens.
 */
export async function removeMember(deps: Deps, input: { organizationUid: string; actorUid: string; userUid: string }): Promise<void> {
  await inTransaction(deps.db.kysely, async (trx) => {
    await lockOrganization(trx, input.organizationUid);
    const actorRole = await lockedActorRole(trx, input.organizationUid, input.actorUid);
    const member = await trx
      .selectFrom('members')
      .select('role')
      .where('organization_uid', '=', input.organizationUid)
      .where('user_uid', '=', input.userUid)
      .executeTakeFirst();
    if (!member) throw notFound('Member not found.');
    if (member.role === 'owner') {
      requirePermission(actorRole, 'members:manage-owners');
      if ((await countMembers(trx, input.organizationUid, 'owner')) <= 1) throw lastOwner();
    }
    await endMembership(trx, deps, { ...input, role: member.role, kind: 'member.removed' });
  });
}

/**
 * The member leaves the organization; their access tokens for it are revoked. The last owner
 * cannot leave (409 `LAST_OWNER`): an organization without an owner could be neither renamed nor
 * deleted. Runs under the organization's lock, so two last owners cannot both leave.
 */
export async function leaveOrganization(deps: Deps, input: { organizationUid: string; userUid: string }): Promise<void> {
  await inTransaction(deps.db.kysely, async (trx) => {
    await lockOrganization(trx, input.organizationUid);
    const member = await trx
      .selectFrom('members')
      .select('role')
      .where('organization_uid', '=', input.organizationUid)
      .where('user_uid', '=', input.userUid)
      .executeTakeFirst();
    if (!member) throw notFound('Organization not found.');
    if (member.role === 'owner' && (await countMembers(trx, input.organizationUid, 'owner')) <= 1) {
      throw conflict('LAST_OWNER', 'You are the last owner: make another member owner first, or delete the organization.');
    }
    await endMembership(trx, deps, { ...input, actorUid: input.userUid, role: member.role, kind: 'member.left' });
  });
}

/**
 * A super admin makes a member `owner`, whoever else is or is not owner: the way out for an
 * organization left without one (one created from a team-chat workspace starts with an admin
 * only). Recorded in the organization's log and in the server's. 404 when the user is not a
 * member.
 */
export async function grantOwnershipAsSuperAdmin(
  deps: Deps,
  input: { organizationUid: string; organizationSlug: string; actorUid: string; userUid: string },
): Promise<MemberView> {
  return inTransaction(deps.db.kysely, async (trx) => {
    await lockOrganization(trx, input.organizationUid);
    const member = await trx
      .selectFrom('members')
      .innerJoin('users', 'users.uid', 'members.user_uid')
      .select(['users.uid', 'users.email', 'users.name', 'members.role', 'members.created_at'])
      .where('members.organization_uid', '=', input.organizationUid)
      .where('members.user_uid', '=', input.userUid)
      .executeTakeFirst();
    if (!member) throw notFound('That account is not a member of this organization: invite it first.');
    const view: MemberView = { uid: member.uid, email: member.email, name: member.name, role: 'owner', joinedAt: member.created_at };
    if (member.role === 'owner') return view;
    await trx
      .updateTable('members')
      .set({ role: 'owner' })
      .where('organization_uid', '=', input.organizationUid)
      .where('user_uid', '=', input.userUid)
      .execute();
    const owners = await countMembers(trx, input.organizationUid, 'owner');
    await recordAudit(trx, deps.clock, {
      organizationUid: input.organizationUid,
      kind: 'member.role_changed',
      actorUid: input.actorUid,
      targetUid: input.userUid,
      data: { from: member.role, to: 'owner', by: 'super_admin' },
    });
    await recordSystemAudit(trx, deps.clock, {
      kind: 'organization.owner_granted',
      actorUid: input.actorUid,
      targetUid: input.userUid,
      organizationUid: input.organizationUid,
      data: { slug: input.organizationSlug, from: member.role, ownersNow: owners },
    });
    return view;
  });
}

/**
 * Ends a membership in the caller's transaction: the row goes, the member's access tokens for the
 * organization are revoked, and the audit log says who ended it (`member.removed` or `member.left`).
 */
async function endMembership(
  trx: Parameters<typeof revokeMemberTokens>[0],
  deps: Deps,
  input: { organizationUid: string; userUid: string; actorUid: string; role: string; kind: 'member.removed' | 'member.left' },
): Promise<void> {
  await trx.deleteFrom('members').where('organization_uid', '=', input.organizationUid).where('user_uid', '=', input.userUid).execute();
  const tokensRevoked = await revokeMemberTokens(trx, input.organizationUid, input.userUid, deps.clock.now().toISOString());
  await recordAudit(trx, deps.clock, {
    organizationUid: input.organizationUid,
    kind: input.kind,
    actorUid: input.actorUid,
    targetUid: input.userUid,
    data: { role: input.role, tokensRevoked },
  });
}
