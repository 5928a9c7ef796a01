// No imports: the contract is the ground floor that daemon, CLI and dashboard all read.

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
  'member.left',
  'membership_request.withdrawn',
  'auth.account_claimed',
  'auth.password_changed',
  'secret.set',
  'secret.deleted',
  'auth.signed_in',
  'organization.saml_changed',
  'organization.group_roles_changed',
] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

/** The event kinds of the server's own audit log (super admins), above any one organization. */
export const SYSTEM_AUDIT_KINDS = ['organization.deleted', 'organization.owner_granted'] as const;
export type SystemAuditKind = (typeof SYSTEM_AUDIT_KINDS)[number];
