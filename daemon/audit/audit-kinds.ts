// No imports: the dashboard's kind filter reads this list too.

/** The event kinds the audit log records. */
export const AUDIT_KINDS = [
  'auth.email_changed',
  'auth.password_reset',
  'organization.created',
  'organization.updated',
  'member.joined',
  'member.role_changed',
  'member.removed',
  'invitation.created',
  'invitation.revoked',
  'invitation.accepted',
  'membership_request.created',
  'membership_request.approved',
  'membership_request.rejected',
  'token.created',
  'token.revoked',
] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];
