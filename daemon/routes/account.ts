import { z } from 'zod';
import { requireSession } from '../access/session-only.js';
import { callerAccount } from '../access/caller-account.js';
import { accountView } from '../accounts/account.js';
import { changeEmail } from '../accounts/email-change.js';
import { issueEmailVerification, sendVerificationMail, verifyEmailFromClient } from '../accounts/email-verification.js';
import { verifyCurrentPassword } from '../auth/password-login.js';
import { afterEmailVerified } from '../accounts/registration.js';
import { emailField, passwordField } from '../auth/schemas.js';
import { conflict, forbidden } from '../errors.js';
import { plainNameField } from '../plain-text.js';
import { route, type RouteSpec } from '../http/route.js';

const patchMe = z
  .object({
    email: emailField.optional(),
    currentPassword: passwordField.optional(),
    name: plainNameField(200).optional(),
    revokeTokens: z.boolean().optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.email === undefined && body.name === undefined) ctx.addIssue({ code: 'custom', message: 'email or name is required', path: [] });
    if (body.email !== undefined && body.currentPassword === undefined) {
      ctx.addIssue({ code: 'custom', message: 'is required to change the e-mail address', path: ['currentPassword'] });
    }
  });

/** The signed-in account's own changes: name and e-mail address, and verifying the address. */
export const accountRoutes: RouteSpec[] = [
  route({
    method: 'PATCH',
    path: '/auth/me',
    permission: 'authenticated',
    response: 'Account',
    allowDuringPasswordChange: true,
    summary:
      'Change the name, or the e-mail address with the current password; other sessions then end (and with `revokeTokens: true` every personal access token).',
    body: patchMe,
    async handler({ ctx, deps, auth, body }) {
      requireSession(auth, 'Changing the account');
      let user = auth.user;
      if (body.email !== undefined) {
        if (!user.has_password) {
          throw forbidden('This account has no password: change its e-mail address at your identity provider, or ask a super admin.');
        }
        await verifyCurrentPassword(deps, ctx, user, body.currentPassword!);
        user = callerAccount(
          await changeEmail(deps, {
            target: user,
            newEmail: body.email,
            actor: user,
            by: 'self',
            keepSessionIdHash: auth.session?.id_hash,
            revokeTokens: body.revokeTokens === true,
          }),
        );
      }
      if (body.name !== undefined && body.name !== user.name) {
        const now = deps.clock.now().toISOString();
        await deps.db.kysely.updateTable('users').set({ name: body.name, updated_at: now }).where('uid', '=', user.uid).execute();
        user = { ...user, name: body.name, updated_at: now };
      }
      return accountView(deps.db, user);
    },
  }),
  route({
    method: 'POST',
    path: '/auth/verify-email',
    permission: 'public',
    response: 'EmailVerified',
    summary: 'Confirm an e-mail address with the token from the verification mail.',
    body: z.object({ token: z.string().min(1, 'is required').max(200) }),
    async handler({ ctx, deps, body }) {
      const { user, purpose } = await verifyEmailFromClient(deps, ctx.ip, body.token);
      await afterEmailVerified(deps, user, purpose);
      return { email: user.email, emailVerified: true };
    },
  }),
  route({
    method: 'POST',
    path: '/auth/verify-email/resend',
    permission: 'authenticated',
    summary: 'Mail a new verification link to the account’s unverified address.',
    async handler({ deps, auth }) {
      if (auth.user.email_verified === 1) return undefined;
      if (!deps.mailer.enabled) throw conflict('MAIL_NOT_CONFIGURED', 'This server sends no mail, so it cannot verify addresses; ask a super admin.');
      // The purpose carries over: a sign-up that was waiting to join by pattern still joins.
      const pending = await deps.db.kysely
        .selectFrom('email_verifications')
        .select('purpose')
        .where('user_uid', '=', auth.user.uid)
        .orderBy('created_at', 'desc')
        .executeTakeFirst();
      const purpose = pending?.purpose === 'registration' ? 'registration' : 'email_change';
      const verification = await issueEmailVerification(deps.db.kysely, deps, { userUid: auth.user.uid, email: auth.user.email, purpose });
      await sendVerificationMail(deps, verification);
      return undefined;
    },
  }),
];
