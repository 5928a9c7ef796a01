import type { Mail } from '../mail/mailer.js';

/** The mail with the reset link. */
export function resetLinkMail(input: { to: string; url: string; expiresAt: string; byAdministrator: boolean }): Mail {
  return {
    to: input.to,
    subject: 'Reset your password',
    text: [
      input.byAdministrator
        ? 'An administrator asked for a link that lets you choose a new password for your account:'
        : 'Someone (hopefully you) asked to reset the password of your account. Choose a new one here:',
      input.url,
      '',
      `The link works once and expires on ${input.expiresAt}. Using it signs out every session of your account.`,
      'If you did not ask for this, ignore this mail: your password stays as it is.',
    ].join('\n'),
  };
}

/**
 * The answer to a reset request for an account that has no password and may not set one: it
 * says how to sign in instead, so the owner is not left waiting for a link that never comes.
 */
export function externalAccountMail(input: { to: string; baseUrl: string }): Mail {
  return {
    to: input.to,
    subject: 'About your password reset request',
    text: [
      'Someone (hopefully you) asked to reset the password of your account.',
      '',
      'Your account has no password: it signs in through an identity provider. Open',
      input.baseUrl,
      'and sign in with the same provider you used before. To change how you sign in there,',
      'go to that provider, or ask an administrator of this service.',
      '',
      'If you did not ask for this, ignore this mail.',
    ].join('\n'),
  };
}

/** The notice after a reset, so an owner who did not do it finds out. */
export function passwordResetNotice(input: { to: string; at: string }): Mail {
  return {
    to: input.to,
    subject: 'Your password was reset',
    text: [
      `The password of your account was reset with an e-mailed link on ${input.at}.`,
      'Every session of the account was signed out and every personal access token of it was revoked.',
      '',
      'If you did not do this, reset your password again at once and contact your administrator.',
    ].join('\n'),
  };
}
