import { sql, type Transaction } from 'kysely';
import { recordAudit } from '../audit/audit-log.js';
import type { Clock } from '../clock.js';
import type { Database, Organization } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { conflict, notFound, type AppError } from '../errors.js';
import type { Role } from './permissions.js';
import type { Executor } from '../db/executor.js';
import { inTransaction } from '../db/in-transaction.js';

/** How someone came to join, recorded in the audit log. */
export type JoinVia = 'invitation' | 'membership_request' | 'email_pattern' | 'team_chat' | 'ldap' | 'saml';

/** What {@link joinOrganization} did. */
export type JoinResult = { status: 'joined'; role: Role } | { status: 'already-member'; role: Role } | { status: 'member-limit'; limit: number };

export interface JoinInput {
  organizationUid: string;
  userUid: string;
  role: Role;
  /** The role instead of `role` when the organization has no member yet (team-chat: the first person becomes admin). */
  roleIfEmpty?: Role;
  via: JoinVia;
  /** Who let them in (an approving admin); null when the person joined by themselves. */
  actorUid?: string | null;
  /** Extra audit data (never a secret). */
  data?: Record<string, unknown>;
}

/**
 * Takes the organization's row lock for the rest of the transaction and returns the row. Every
 * change that depends on counting members (the member limit, "at least one owner") takes it
 * first, so two concurrent changes cannot both pass the count. A no-op UPDATE locks on both
 * engines: a row lock on PostgreSQL, the write lock on SQLite.
 */
export async function lockOrganization(trx: Executor, organizationUid: string): Promise<Organization> {
  const org = await trx
    .updateTable('organizations')
    .set({ member_limit: sql`member_limit` })
    .where('uid', '=', organizationUid)
    .returningAll()
    .executeTakeFirst();
  if (!org) throw notFound('Organization not found.');
  return org;
}

/** How many members an organization has (optionally of one role). */
export async function countMembers(db: Executor, organizationUid: string, role?: Role): Promise<number> {
  let query = db
    .selectFrom('members')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_uid', '=', organizationUid);
  if (role) query = query.where('role', '=', role);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}

/** 409 CONFLICT `MEMBER_LIMIT_REACHED`. */
export const memberLimitReached = (limit: number): AppError =>
  conflict('MEMBER_LIMIT_REACHED', `The organization has reached its member limit of ${limit}; an admin must raise the limit or remove a member first.`);

/**
 * Adds a user to an organization with a role, respecting its member limit, in one transaction
 * that also records `member.joined`. `whenJoined` runs in the same transaction only when the
 * user actually joined (e.g. to mark an invitation accepted), so the two succeed or fail together.
 * Never throws for the limit or an existing membership: the result says, and callers choose
 * (refuse with {@link requireJoined}, or fall back to a membership request).
 */
export async function joinOrganization(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  input: JoinInput,
  whenJoined?: (trx: Transaction<Database>) => Promise<void>,
): Promise<JoinResult> {
  return inTransaction(deps.db.kysely, (trx) => joinOrganizationIn(trx, deps.clock, input, whenJoined));
}

/** {@link joinOrganization} inside a transaction the caller already holds. */
export async function joinOrganizationIn(
  trx: Transaction<Database>,
  clock: Clock,
  input: JoinInput,
  whenJoined?: (trx: Transaction<Database>) => Promise<void>,
): Promise<JoinResult> {
  const org = await lockOrganization(trx, input.organizationUid);
  const existing = await trx
    .selectFrom('members')
    .select('role')
    .where('organization_uid', '=', org.uid)
    .where('user_uid', '=', input.userUid)
    .executeTakeFirst();
  if (existing) return { status: 'already-member', role: existing.role };
  const count = await countMembers(trx, org.uid);
  if (org.member_limit !== null && count >= org.member_limit) return { status: 'member-limit', limit: org.member_limit };
  const role = count === 0 && input.roleIfEmpty ? input.roleIfEmpty : input.role;
  await trx.insertInto('members').values({ organization_uid: org.uid, user_uid: input.userUid, role, created_at: clock.now().toISOString() }).execute();
  await recordAudit(trx, clock, {
    organizationUid: org.uid,
    kind: 'member.joined',
    actorUid: input.actorUid ?? input.userUid,
    targetUid: input.userUid,
    data: { ...input.data, role, via: input.via },
  });
  if (whenJoined) await whenJoined(trx);
  return { status: 'joined', role };
}

/** Turns a join that did not happen into the API's 409 CONFLICT; returns the role otherwise. */
export function requireJoined(result: JoinResult): Role {
  if (result.status === 'member-limit') throw memberLimitReached(result.limit);
  if (result.status === 'already-member') throw conflict('ALREADY_MEMBER', `Already a member of this organization (role ${result.role}).`);
  return result.role;
}
