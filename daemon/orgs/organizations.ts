import { sql } from 'kysely';
import { z } from 'zod';
import { recordAudit } from '../audit/audit-log.js';
import { recordSystemAudit } from '../audit/system-audit-log.js';
import { countMembers } from '../access/membership.js';
import type { Role } from '../access/permissions.js';
import { newId } from '../db/ids.js';
import type { Organization, UserProfile } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { conflict } from '../errors.js';
import { plainNameField } from '../plain-text.js';
import { deleteParameter, readParameter, writeParameter } from '../parameters.js';
import { EMAIL_PATTERN_PARAMETER } from './email-pattern.js';
import type { Organization as ContractOrganization } from '../../contract/responses.js';
import { inTransaction } from '../db/in-transaction.js';

type Deps = Pick<AppDeps, 'db' | 'clock'>;

/** Lower-case letters, digits and inner hyphens: it appears in every URL of the organization. */
export const orgSlugField = z
  .string()
  .min(2, 'must be at least 2 characters')
  .max(48, 'must be at most 48 characters')
  .regex(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/, 'must be lower-case letters, digits and inner hyphens');

/** An organization's name: it appears in invitation mails, so no control characters. */
export const orgNameField = plainNameField(200);

/** An organization as its members see it. */
export type OrganizationView = ContractOrganization;

/**
 * The organization as `role` sees it. `registrationEmailPattern`, when given, is the pattern
 * known to be stored (null: none), which spares reading it again.
 */
export async function organizationView(
  deps: Pick<AppDeps, 'db' | 'config'>,
  org: Organization,
  role: Role,
  registrationEmailPattern?: string | null,
): Promise<OrganizationView> {
  const pattern = registrationEmailPattern !== undefined ? { value: registrationEmailPattern } : await readParameter(deps, org.uid, EMAIL_PATTERN_PARAMETER);
  return {
    uid: org.uid,
    slug: org.slug,
    name: org.name,
    role,
    memberCount: await countMembers(deps.db.kysely, org.uid),
    memberLimit: org.member_limit,
    checkLimit: deps.config.organizations.checksLimit || null,
    registrationEmailPattern: typeof pattern.value === 'string' ? pattern.value : null,
    createdAt: org.created_at,
  };
}

/**
 * Creates an organization with its creator as `owner`; 409 `SLUG_TAKEN` when the slug is in use,
 * 409 `ORGANIZATION_LIMIT_REACHED` when the creator already owns `organizations.perUserLimit`
 * (super admins excepted). Each organization can hold a registration pattern that every sign-up
 * is matched against, so the limit also bounds what one account can add to that work.
 */
export async function createOrganization(
  deps: Deps & Pick<AppDeps, 'config'>,
  user: UserProfile,
  input: { slug: string; name: string },
): Promise<Organization> {
  const now = deps.clock.now().toISOString();
  const org: Organization = { uid: newId(), slug: input.slug, name: input.name, member_limit: null, created_at: now };
  return inTransaction(deps.db.kysely, async (trx) => {
    const limit = deps.config.organizations.perUserLimit;
    if (limit > 0 && !user.super_admin) {
      // The user's row is locked first (a no-op update), so parallel creations count one by one.
      await trx.updateTable('users').set({ updated_at: sql`updated_at` }).where('uid', '=', user.uid).execute();
      const owned = await trx
        .selectFrom('members')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_uid', '=', user.uid)
        .where('role', '=', 'owner')
        .executeTakeFirstOrThrow();
      if (Number(owned.n) >= limit) {
        throw conflict(
          'ORGANIZATION_LIMIT_REACHED',
          `An account may own at most ${limit} organizations: delete one, or hand its ownership to someone else, first.`,
        );
      }
    }
    const inserted = await trx
      .insertInto('organizations')
      .values(org)
      .onConflict((oc) => oc.column('slug').doNothing())
      .returning('uid')
      .executeTakeFirst();
    if (!inserted) throw conflict('SLUG_TAKEN', `The organization slug "${input.slug}" is already taken.`);
    await trx.insertInto('members').values({ organization_uid: org.uid, user_uid: user.uid, role: 'owner', created_at: now }).execute();
    await recordAudit(trx, deps.clock, {
      organizationUid: org.uid,
      kind: 'organization.created',
      actorUid: user.uid,
      data: { slug: org.slug, name: org.name },
    });
    return org;
  });
}

/** The caller's organizations, by slug. */
export async function listMyOrganizations(deps: Pick<AppDeps, 'db'>, userUid: string) {
  const rows = await deps.db.kysely
    .selectFrom('members')
    .innerJoin('organizations', 'organizations.uid', 'members.organization_uid')
    .select(['organizations.uid', 'organizations.slug', 'organizations.name', 'organizations.created_at', 'members.role'])
    .where('members.user_uid', '=', userUid)
    .orderBy('organizations.slug')
    .execute();
  return rows.map((row) => ({ uid: row.uid, slug: row.slug, name: row.name, role: row.role, createdAt: row.created_at }));
}

/** The settings a PATCH may change; absent fields stay as they are, null clears. */
export interface OrganizationChanges {
  name?: string;
  memberLimit?: number | null;
  registrationEmailPattern?: string | null;
}

/** Applies changes and records `organization.updated` with what changed (old and new values), in one transaction. */
export async function updateOrganization(deps: Deps, org: Organization, actorUid: string, changes: OrganizationChanges): Promise<Organization> {
  const changed: Record<string, { from: unknown; to: unknown }> = {};
  const updated = { ...org };
  if (changes.name !== undefined && changes.name !== org.name) {
    changed.name = { from: org.name, to: changes.name };
    updated.name = changes.name;
  }
  if (changes.memberLimit !== undefined && changes.memberLimit !== org.member_limit) {
    changed.memberLimit = { from: org.member_limit, to: changes.memberLimit };
    updated.member_limit = changes.memberLimit;
  }
  if (changes.registrationEmailPattern !== undefined) {
    const current = await readParameter(deps, org.uid, EMAIL_PATTERN_PARAMETER);
    const before = typeof current.value === 'string' ? current.value : null;
    if (before !== changes.registrationEmailPattern) changed.registrationEmailPattern = { from: before, to: changes.registrationEmailPattern };
  }
  if (Object.keys(changed).length === 0) return org;
  // The row, the parameter and the audit entry: all of them or none.
  await inTransaction(deps.db.kysely, async (trx) => {
    const inTrx = { ...deps, db: { ...deps.db, kysely: trx } };
    if (changed.name || changed.memberLimit) {
      await trx.updateTable('organizations').set({ name: updated.name, member_limit: updated.member_limit }).where('uid', '=', org.uid).execute();
    }
    if (changed.registrationEmailPattern) {
      if (changes.registrationEmailPattern === null) await deleteParameter(inTrx, org.uid, EMAIL_PATTERN_PARAMETER);
      else await writeParameter(inTrx, org.uid, EMAIL_PATTERN_PARAMETER, changes.registrationEmailPattern);
    }
    await recordAudit(trx, deps.clock, { organizationUid: org.uid, kind: 'organization.updated', actorUid, data: { changes: changed } });
  });
  return updated;
}

/**
 * Deletes an organization and, by cascade, everything it owns (members, tokens, checks, its audit
 * log). Since its own log goes with it, the deletion is recorded in the server's audit log, in
 * the same transaction.
 */
export async function deleteOrganization(deps: Deps, org: Organization, actorUid: string): Promise<void> {
  await inTransaction(deps.db.kysely, async (trx) => {
    const memberCount = await countMembers(trx, org.uid);
    await trx.deleteFrom('organizations').where('uid', '=', org.uid).execute();
    await recordSystemAudit(trx, deps.clock, {
      kind: 'organization.deleted',
      actorUid,
      organizationUid: org.uid,
      data: { slug: org.slug, name: org.name, memberCount, createdAt: org.created_at },
    });
  });
}
