import { z } from 'zod';
import {
  confirmPasswordReset,
  externalAccountsMaySetPassword,
  issuePasswordReset,
  PASSWORD_RESET_TTL_SECONDS,
  requestPasswordReset,
  resetMail,
} from '../auth/password-reset.js';
import { emailField, newPasswordField } from '../auth/schemas.js';
import { requireUser } from '../auth/users.js';
import { conflict } from '../errors.js';
import { route, type RouteSpec } from './route.js';

/** The one answer to every reset request, whether or not the address has an account. */
export const RESET_REQUESTED = {
  message: 'If an account uses this address, a mail with a link to reset its password is on its way. The link works once, for one hour.',
  expiresInSeconds: PASSWORD_RESET_TTL_SECONDS,
} as const;

/** Password reset by e-mailed link, asked for by the account holder or by a super admin. */
export const passwordResetRoutes: RouteSpec[] = [
  route({
    method: 'POST',
    path: '/auth/password-reset',
    permission: 'public',
    summary: 'Mail a password reset link; always 202 with the same body, whether or not the address has an account.',
    body: z.object({ email: emailField }),
    status: 202,
    async handler({ ctx, deps, body }) {
      await requestPasswordReset(deps, ctx, body.email);
      return RESET_REQUESTED;
    },
  }),
  route({
    method: 'POST',
    path: '/auth/password-reset/confirm',
    permission: 'public',
    summary: 'Set a new password with the token of a reset link; every session of the account ends.',
    body: z.object({ token: z.string().min(1, 'is required').max(200), newPassword: newPasswordField }),
    async handler({ deps, body }) {
      await confirmPasswordReset(deps, body.token, body.newPassword);
    },
  }),
  route({
    method: 'POST',
    path: '/system/users/:uid/password-reset',
    permission: 'superAdmin',
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
