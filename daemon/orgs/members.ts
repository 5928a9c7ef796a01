import type { Kysely } from 'kysely';
import { recordAudit } from '../audit/audit-log.js';
import { countMembers, lockOrganization } from '../access/membership.js';
import { requirePermission } from '../access/org-access.js';
import type { Role } from '../access/permissions.js';
import type { Database } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { conflict, notFound } from '../errors.js';

type Deps = Pick<AppDeps, 'db' | 'clock'>;

/** A member as the organization's members see them. */
export interface MemberView {
  uid: string;
  email: string;
  name: string;
  role: Role;
  joinedAt: string;
}

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
async function lockedActorRole(trx: Kysely<Database>, organizationUid: string, actorUid: string): Promise<Role> {
  const row = await trx.selectFrom('members').select('role').where('organization_uid', '=', organizationUid).where('user_uid', '=', actorUid).executeTakeFirst();
  if (!row) throw notFound('Organization not found.');
  requirePermission(row.role, 'members:manage');
  return row.role;
}

const lastOwner = () =>
  conflict('LAST_OWNER', 'An organization must keep at least one owner: make someone else owner first, or delete the organization.');

/**
 * Changes a member's role. Granting or revoking `owner` takes an owner; the last owner cannot be
 * demoted. Runs under the organization's lock, so two owners demoting each other cannot both win.
 */
export async function changeMemberRole(deps: Deps, input: { organizationUid: string; actorUid: string; userUid: string; role: Role }): Promise<MemberView> {
  return deps.db.kysely.transaction().execute(async (trx) => {
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
    await trx.updateTable('members').set({ role: input.role }).where('organization_uid', '=', input.organizationUid).where('user_uid', '=', input.userUid).execute();
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
  await deps.db.kysely.transaction().execute(async (trx) => {
    await lockOrganization(trx, input.organizationUid);
    const actorRole = await lockedActorRole(trx, input.organizationUid, input.actorUid);
    const member = await trx.selectFrom('members').select('role').where('organization_uid', '=', input.organizationUid).where('user_uid', '=', input.userUid).executeTakeFirst();
    if (!member) throw notFound('Member not found.');
    if (member.role === 'owner') {
      requirePermission(actorRole, 'members:manage-owners');
      if ((await countMembers(trx, input.organizationUid, 'owner')) <= 1) throw lastOwner();
    }
    const now = deps.clock.now().toISOString();
    await trx.deleteFrom('members').where('organization_uid', '=', input.organizationUid).where('user_uid', '=', input.userUid).execute();
    const revoked = await trx
      .updateTable('personal_tokens')
      .set({ revoked_at: now })
      .where('organization_uid', '=', input.organizationUid)
      .where('user_uid', '=', input.userUid)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    await recordAudit(trx, deps.clock, {
      organizationUid: input.organizationUid,
      kind: 'member.removed',
      actorUid: input.actorUid,
      targetUid: input.userUid,
      data: { role: member.role, tokensRevoked: Number(revoked.numUpdatedRows) },
    });
  });
}
