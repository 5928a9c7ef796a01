import type { GroupRole } from '../../contract/enterprise-sign-in.js';
import { joinOrganizationIn, lockOrganization } from '../access/membership.js';
import { roleRank, type Role } from '../access/permissions.js';
import { recordAudit } from '../audit/audit-log.js';
import type { Organization, User } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { inTransaction } from '../db/in-transaction.js';

export { GROUP_ROLES, type GroupRole } from '../../contract/enterprise-sign-in.js';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'logger'>;

/** An organization's group → role mapping. */
export async function readGroupRoles(deps: Pick<AppDeps, 'db'>, organizationUid: string): Promise<Record<string, GroupRole>> {
  const rows = await deps.db.kysely
    .selectFrom('group_roles')
    .select(['group_name', 'role'])
    .where('organization_uid', '=', organizationUid)
    .orderBy('group_name')
    .execute();
  return Object.fromEntries(rows.map((row) => [row.group_name, row.role as GroupRole]));
}

/** Replaces an organization's whole mapping in one transaction, recording who changed it. */
export async function replaceGroupRoles(deps: Deps, org: Organization, actorUid: string, mapping: Record<string, GroupRole>): Promise<void> {
  await inTransaction(deps.db.kysely, async (trx) => {
    // Two replacements at once take turns, so neither inserts a row the other just inserted.
    await lockOrganization(trx, org.uid);
    await trx.deleteFrom('group_roles').where('organization_uid', '=', org.uid).execute();
    const rows = Object.entries(mapping).map(([group_name, role]) => ({ organization_uid: org.uid, group_name, role }));
    if (rows.length > 0) await trx.insertInto('group_roles').values(rows).execute();
    await recordAudit(trx, deps.clock, { organizationUid: org.uid, kind: 'organization.group_roles_changed', actorUid, data: { groupRoles: mapping } });
  });
}

/** What a directory sign-in did in one organization. */
export interface GroupRoleOutcome {
  organizationUid: string;
  outcome: 'joined' | 'role-changed' | 'unchanged' | 'member-limit';
  role?: Role;
}

/**
 * Applies the groups a directory reported for `user`: in each organization (all that map any of
 * the groups for LDAP; only `onlyOrganizationUid` for SAML, whose identity provider speaks for
 * its own organization alone) the highest mapped role is granted, joining just in time (audited
 * `member.joined` via the method) or changing the role of a member (`member.role_changed`).
 * An owner is never changed, and no role is ever taken away for a group no longer reported.
 * `fallbackRole`: the role of a new member none of whose groups is mapped (SAML's just-in-time
 * membership); without it such a person joins nothing.
 */
export async function applyGroupRoles(
  deps: Deps,
  user: User,
  groups: string[],
  options: { via: 'ldap' | 'saml'; onlyOrganizationUid?: string; fallbackRole?: GroupRole },
): Promise<GroupRoleOutcome[]> {
  let query = deps.db.kysely.selectFrom('group_roles').select(['organization_uid', 'group_name', 'role']);
  if (options.onlyOrganizationUid) query = query.where('organization_uid', '=', options.onlyOrganizationUid);
  const mapped = groups.length > 0 ? await query.where('group_name', 'in', groups).execute() : [];
  const best = new Map<string, GroupRole>();
  for (const row of mapped) {
    const role = row.role as GroupRole;
    const current = best.get(row.organization_uid);
    if (!current || roleRank(role) > roleRank(current)) best.set(row.organization_uid, role);
  }
  if (options.onlyOrganizationUid && options.fallbackRole && !best.has(options.onlyOrganizationUid))
    best.set(options.onlyOrganizationUid, options.fallbackRole);
  const outcomes: GroupRoleOutcome[] = [];
  for (const [organizationUid, role] of best) {
    const fromGroups = mapped.some((row) => row.organization_uid === organizationUid);
    outcomes.push(
      await inTransaction(deps.db.kysely, async (trx) => {
        const joined = await joinOrganizationIn(trx, deps.clock, {
          organizationUid,
          userUid: user.uid,
          role,
          via: options.via,
          data: { groups: groups.slice(0, 50) },
        });
        if (joined.status === 'joined') return { organizationUid, outcome: 'joined' as const, role };
        if (joined.status === 'member-limit') return { organizationUid, outcome: 'member-limit' as const };
        // Only a mapped group changes an existing membership; owners stay owners.
        if (!fromGroups || joined.role === 'owner' || joined.role === role) return { organizationUid, outcome: 'unchanged' as const, role: joined.role };
        await trx.updateTable('members').set({ role }).where('organization_uid', '=', organizationUid).where('user_uid', '=', user.uid).execute();
        await recordAudit(trx, deps.clock, {
          organizationUid,
          kind: 'member.role_changed',
          actorUid: null,
          targetUid: user.uid,
          data: { from: joined.role, to: role, via: options.via },
        });
        return { organizationUid, outcome: 'role-changed' as const, role };
      }),
    );
  }
  if (outcomes.length > 0)
    deps.logger.info({ user: user.uid, via: options.via, outcomes: outcomes.map((o) => `${o.organizationUid}:${o.outcome}`) }, 'directory groups applied');
  return outcomes;
}
