import { recordAudit } from '../audit/audit-log.js';
import { countMembers, joinOrganization, memberLimitReached, requireJoined } from '../access/membership.js';
import { requirePermission } from '../access/authorize.js';
import type { Role } from '../access/permissions.js';
import { randomToken, sha256 } from '../crypto/tokens.js';
import { normalizeEmail } from '../accounts/users.js';
import { isoIn } from '../clock.js';
import { newId } from '../db/ids.js';
import type { Organization, UserProfile } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { conflict, forbidden, notFound } from '../errors.js';
import { toPage, type Page, type PageRequest } from '../http/pagination.js';
import { dashboardLink, invitationMail, maskEmail } from '../mail/notices.js';
import type { Actor } from './members.js';
import type { Invitation as ContractInvitation } from '../../contract/responses.js';
import { inTransaction } from '../db/in-transaction.js';

/** How long an invitation link works. */
export const INVITATION_TTL_SECONDS = 7 * 86400;

export type InvitationStatus = 'pending' | 'accepted' | 'revoked' | 'expired';

/** An invitation as admins see it; the token appears only in the answer to its creation. */
export type InvitationView = ContractInvitation;

const invitationUrl = (deps: Pick<AppDeps, 'config'>, token: string) =>
  // The token rides in the fragment, which browsers never send to a server or put in a Referer.
  dashboardLink(deps.config.baseUrl, `/d/invitations/accept#token=${encodeURIComponent(token)}`);

function statusOf(row: { accepted_at: string | null; revoked_at: string | null; expires_at: string }, now: string): InvitationStatus {
  if (row.accepted_at) return 'accepted';
  if (row.revoked_at) return 'revoked';
  return row.expires_at <= now ? 'expired' : 'pending';
}

/**
 * Invites an address with a role (owner only by an owner). A newer invitation to the same
 * address replaces a pending one. The link is returned, and mailed when SMTP is configured.
 */
export async function createInvitation(
  deps: Pick<AppDeps, 'db' | 'clock' | 'config' | 'mailer'>,
  input: { org: Organization; actor: Actor & { name: string; email: string }; email: string; role: Role },
): Promise<InvitationView & { token: string; url: string }> {
  if (input.role === 'owner') requirePermission(input.actor.role, 'members:manage-owners');
  const email = normalizeEmail(input.email);
  const member = await deps.db.kysely
    .selectFrom('members')
    .innerJoin('users', 'users.uid', 'members.user_uid')
    .select('members.role')
    .where('members.organization_uid', '=', input.org.uid)
    .where('users.email', '=', email)
    .executeTakeFirst();
  if (member) throw conflict('ALREADY_MEMBER', `${email} is already a member of this organization (role ${member.role}).`);
  // Refused now rather than at acceptance, when the invited person could do nothing about it.
  if (input.org.member_limit !== null && (await countMembers(deps.db.kysely, input.org.uid)) >= input.org.member_limit) {
    throw memberLimitReached(input.org.member_limit);
  }
  const token = randomToken(32);
  const now = deps.clock.now();
  const row = {
    uid: newId(now.getTime()),
    organization_uid: input.org.uid,
    email,
    role: input.role,
    token_hash: sha256(token),
    invited_by_uid: input.actor.uid,
    expires_at: isoIn(deps.clock, INVITATION_TTL_SECONDS),
    accepted_at: null,
    accepted_by_uid: null,
    revoked_at: null,
    created_at: now.toISOString(),
  };
  await inTransaction(deps.db.kysely, async (trx) => {
    await trx
      .updateTable('invitations')
      .set({ revoked_at: now.toISOString() })
      .where('organization_uid', '=', input.org.uid)
      .where('email', '=', email)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .execute();
    await trx.insertInto('invitations').values(row).execute();
    await recordAudit(trx, deps.clock, {
      organizationUid: input.org.uid,
      kind: 'invitation.created',
      actorUid: input.actor.uid,
      data: { invitationUid: row.uid, email, role: input.role },
    });
  });
  const url = invitationUrl(deps, token);
  if (deps.mailer.enabled) {
    await deps.mailer.send(
      invitationMail({
        to: email,
        orgName: input.org.name,
        role: input.role,
        invitedBy: `${input.actor.name} (${input.actor.email})`,
        url,
        expiresAt: row.expires_at,
      }),
    );
  }
  return { ...view(row, now.toISOString()), token, url };
}

function view(
  row: {
    uid: string;
    email: string;
    role: Role;
    invited_by_uid: string | null;
    expires_at: string;
    accepted_at: string | null;
    revoked_at: string | null;
    created_at: string;
  },
  now: string,
): InvitationView {
  return {
    uid: row.uid,
    email: row.email,
    role: row.role,
    status: statusOf(row, now),
    invitedBy: row.invited_by_uid,
    expiresAt: row.expires_at,
    acceptedAt: row.accepted_at,
    createdAt: row.created_at,
  };
}

/** One page of an organization's invitations, newest first. */
export async function listInvitations(deps: Pick<AppDeps, 'db' | 'clock'>, organizationUid: string, page: PageRequest): Promise<Page<InvitationView>> {
  let query = deps.db.kysely.selectFrom('invitations').selectAll().where('organization_uid', '=', organizationUid);
  if (page.cursor) query = query.where('uid', '<', page.cursor);
  const rows = await query
    .orderBy('uid', 'desc')
    .limit(page.limit + 1)
    .execute();
  const now = deps.clock.now().toISOString();
  return toPage(rows, page.limit, (row) => view(row, now));
}

/** Withdraws a pending invitation; its link stops working. */
export async function revokeInvitation(deps: Pick<AppDeps, 'db' | 'clock'>, input: { organizationUid: string; uid: string; actorUid: string }): Promise<void> {
  const now = deps.clock.now().toISOString();
  await inTransaction(deps.db.kysely, async (trx) => {
    const row = await trx
      .selectFrom('invitations')
      .selectAll()
      .where('uid', '=', input.uid)
      .where('organization_uid', '=', input.organizationUid)
      .executeTakeFirst();
    if (!row) throw notFound('Invitation not found.');
    const status = statusOf(row, now);
    if (status === 'revoked') return;
    if (status === 'accepted') throw conflict('ALREADY_ACCEPTED', 'This invitation was already accepted; remove the member instead.');
    await trx.updateTable('invitations').set({ revoked_at: now }).where('uid', '=', row.uid).execute();
    await recordAudit(trx, deps.clock, {
      organizationUid: input.organizationUid,
      kind: 'invitation.revoked',
      actorUid: input.actorUid,
      data: { invitationUid: row.uid, email: row.email, role: row.role },
    });
  });
}

const unusable = () => notFound('This invitation does not exist, has expired, was withdrawn or was already used.');

/**
 * Accepts an invitation for the signed-in user, whose address must be the invited one. Joining
 * respects the member limit; the invitation is used up in the same transaction as the join.
 */
export async function acceptInvitation(deps: Pick<AppDeps, 'db' | 'clock'>, user: UserProfile, token: string): Promise<{ org: string; role: Role }> {
  const row = await deps.db.kysely
    .selectFrom('invitations')
    .innerJoin('organizations', 'organizations.uid', 'invitations.organization_uid')
    .selectAll('invitations')
    .select('organizations.slug')
    .where('invitations.token_hash', '=', sha256(token))
    .executeTakeFirst();
  const now = deps.clock.now().toISOString();
  if (!row || statusOf(row, now) !== 'pending') throw unusable();
  if (row.email !== user.email) {
    throw forbidden(`This invitation was sent to ${maskEmail(row.email)}; sign in with that address to accept it.`);
  }
  const result = await joinOrganization(
    deps,
    { organizationUid: row.organization_uid, userUid: user.uid, role: row.role, via: 'invitation', actorUid: user.uid, data: { invitationUid: row.uid } },
    async (trx) => {
      const claimed = await trx
        .updateTable('invitations')
        .set({ accepted_at: now, accepted_by_uid: user.uid })
        .where('uid', '=', row.uid)
        .where('accepted_at', 'is', null)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) throw unusable();
      await recordAudit(trx, deps.clock, {
        organizationUid: row.organization_uid,
        kind: 'invitation.accepted',
        actorUid: user.uid,
        targetUid: user.uid,
        data: { invitationUid: row.uid, email: row.email, role: row.role, invitedBy: row.invited_by_uid },
      });
    },
  );
  return { org: row.slug, role: requireJoined(result) };
}
