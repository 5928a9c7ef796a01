import { z } from 'zod';
import {
  confirmPasswordReset,
  externalAccountsMaySetPassword,
  issuePasswordReset,
  PASSWORD_RESET_TTL_SECONDS,
  requestPasswordReset,
  resetMail,
} from '../accounts/password-reset.js';
import { emailField, newPasswordField } from '../auth/schemas.js';
import { requireUser } from '../accounts/users.js';
import { conflict } from '../errors.js';
import { route, type RouteSpec } from '../http/route.js';

/** The one answer to every reset request when mail is sent, whether or not the address has an account. */
export const RESET_REQUESTED = {
  message: 'If an account uses this address, a mail with a link to reset its password is on its way. The link works once, for one hour.',
  mailed: true,
  expiresInSeconds: PASSWORD_RESET_TTL_SECONDS,
} as const;

/** The one answer when this server sends no mail (no SMTP): no link is on its way, and who can help. */
export const RESET_NOT_MAILED = {
  message:
    'This server does not send mail, so no reset link was sent. Ask an administrator to issue a reset link for your account; ' + 'it works once, for one hour.',
  mailed: false,
  expiresInSeconds: PASSWORD_RESET_TTL_SECONDS,
} as const;

/** Password reset by e-mailed link, asked for by the account holder or by a super admin. */
export const passwordResetRoutes: RouteSpec[] = [
  route({
    method: 'POST',
    path: '/auth/password-reset',
    permission: 'public',
    response: 'PasswordResetRequested',
    summary:
      'Mail a password reset link; always 202 with the same body, whether or not the address has an account. ' +
      'Without SMTP the body says (mailed: false) that no mail is sent and an administrator can issue a link.',
    body: z.object({ email: emailField }),
    status: 202,
    async handler({ ctx, deps, body }) {
      await requestPasswordReset(deps, ctx, body.email);
      return deps.mailer.enabled ? RESET_REQUESTED : RESET_NOT_MAILED;
    },
  }),
  route({
    method: 'POST',
    path: '/auth/password-reset/confirm',
    permission: 'public',
    summary: 'Set a new password with the token of a reset link; every session of the account ends and every personal access token is revoked.',
    body: z.object({ token: z.string().min(1, 'is required').max(200), newPassword: newPasswordField }),
    async handler({ deps, body }) {
      await confirmPasswordReset(deps, body.token, body.newPassword);
    },
  }),
  route({
    method: 'POST',
    path: '/system/users/:uid/password-reset',
    permission: 'superAdmin',
    response: 'PasswordResetIssued',
    summary: 'Issue a reset link for any account: mailed when SMTP is configured, else returned as `url`.',
    status: 201,
    async handler({ deps, auth, params }) {
      const target = await requireUser(deps, params.uid);
      if (target.password_hash === null && !(await externalAccountsMaySetPassword(deps))) {
        throw conflict(
          'EXTERNAL_ACCOUNT',
          'This account signs in through an identity provider and has no password; set the system parameter auth.allow_password_for_external_accounts to {"value": true} to let it set one.',
        );
      }
      const issued = await issuePasswordReset(deps, target, auth.user.uid);
      deps.logger.info({ user: target.uid, actor: auth.user.uid, mailed: deps.mailer.enabled }, 'password reset link issued by a super admin');
      const answer = { userUid: issued.userUid, email: issued.email, expiresAt: issued.expiresAt };
      if (!deps.mailer.enabled) return { ...answer, mailed: false, url: issued.url };
      await deps.mailer.send(resetMail(issued, true));
      return { ...answer, mailed: true };
    },
  }),
];
