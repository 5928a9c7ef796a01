import type { Mail } from './mailer.js';

/** A link into the dashboard under the public base address. */
export function dashboardLink(baseUrl: string, path: string): string {
  return baseUrl.replace(/\/+$/, '') + path;
}

/**
 * An address shown to someone who may not own the account any more (the previous address after a
 * change): enough to recognise it, not enough to learn it.
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${email[0]}***${email.slice(at)}`;
}

export function invitationMail(input: { to: string; orgName: string; role: string; invitedBy: string; url: string; expiresAt: string }): Mail {
  return {
    to: input.to,
    subject: `You are invited to join ${input.orgName}`,
    text: [
      `${input.invitedBy} invited you to join the organization "${input.orgName}" as ${input.role}.`,
      '',
      `Accept the invitation (sign in or sign up with this e-mail address first):`,
      input.url,
      '',
      `The invitation expires on ${input.expiresAt}. If you did not expect it, ignore this mail.`,
    ].join('\n'),
  };
}

export function emailChangedNotice(input: { to: string; newEmail: string; bySuperAdmin: boolean; at: string; tokens: string[] }): Mail {
  return {
    to: input.to,
    subject: 'The e-mail address of your account was changed',
    text: [
      `The sign-in e-mail address of your account was changed from this address to ${maskEmail(input.newEmail)}` +
        (input.bySuperAdmin ? ' by an administrator' : '') +
        ` on ${input.at}.`,
      '',
      ...input.tokens,
      '',
      'If you did not make this change, contact your administrator at once.',
    ].join('\n'),
  };
}

/** After a password change: when, and which personal access tokens still work. */
export function passwordChangedNotice(input: { to: string; at: string; tokens: string[] }): Mail {
  return {
    to: input.to,
    subject: 'Your password was changed',
    text: [
      `The password of your account was changed on ${input.at}. Every other session of the account was signed out.`,
      '',
      ...input.tokens,
      '',
      'If you did not do this, reset your password at once and contact your administrator.',
    ].join('\n'),
  };
}

export function verificationMail(input: { to: string; url: string; purpose: 'registration' | 'email_change'; expiresAt: string }): Mail {
  return {
    to: input.to,
    subject: 'Confirm your e-mail address',
    text: [
      input.purpose === 'registration' ? 'Welcome! Confirm the e-mail address of your new account:' : 'Confirm the new e-mail address of your account:',
      input.url,
      '',
      `The link expires on ${input.expiresAt}. If you did not ask for this, ignore this mail.`,
      '',
      // Confirming would vouch for whoever set the account up; a reset makes it the owner's alone.
      'If you did not create this account or change its address yourself, do not confirm: someone else holds it. Ask for a password reset of this address instead (or sign in through an identity provider that knows it), which makes the account yours and ends everything of theirs.',
    ].join('\n'),
  };
}
