import { z } from 'zod';
import { accountView } from '../auth/account.js';
import { verifyCurrentPassword, verifyPasswordLogin } from '../auth/password-login.js';
import { emailField, newPasswordField, passwordField } from '../auth/schemas.js';
import { createSession, revokeSession, revokeUserSessions } from '../auth/sessions.js';
import { afterRegistration } from '../auth/registration.js';
import { sessionOrChallenge } from '../auth/totp-login.js';
import { createUser } from '../auth/users.js';
import { AppError, forbidden } from '../errors.js';
import { route, type RouteSpec } from './route.js';
import { logoutAll } from './sessions.js';

/** Registration, password sign-in, sign-out, the account and its password. */
export const authRoutes: RouteSpec[] = [
  route({
    method: 'POST',
    path: '/auth/register',
    permission: 'public',
    summary: 'Create an account with e-mail and password.',
    body: z.object({ email: emailField, password: newPasswordField, name: z.string().trim().max(200).optional() }),
    status: 201,
    async handler({ deps, body }) {
      const pattern = deps.config.auth.registrationEmailPattern;
      if (pattern && !new RegExp(pattern).test(body.email.toLowerCase())) {
        throw forbidden('Registration is not open to this e-mail address.');
      }
      const user = await createUser(deps, { email: body.email, name: body.name, passwordHash: await deps.hasher.hash(body.password) });
      await afterRegistration(deps, user);
      return { user: await accountView(deps.db, user) };
    },
  }),
  route({
    method: 'POST',
    path: '/auth/login',
    permission: 'public',
    summary: 'Sign in with e-mail and password.',
    body: z.object({ email: z.string().max(254), password: passwordField }),
    async handler({ ctx, deps, body }) {
      const user = await verifyPasswordLogin(deps, ctx, body.email, body.password);
      // An account with 2FA gets {mfaRequired, mfaToken} for /auth/2fa/verify instead of a session.
      return sessionOrChallenge(deps, user, 'password', ctx);
    },
  }),
  route({
    method: 'POST',
    path: '/auth/logout',
    permission: 'authenticated',
    allowDuringPasswordChange: true,
    summary: 'Sign out: the session ends server-side. With ?all=true every other session ends instead and this one stays: 200 {revoked}.',
    async handler({ deps, auth, query }) {
      if (!auth.session) throw new AppError('VALIDATION_FAILED', 'A personal access token is not signed out; revoke it with DELETE /api/v1/auth/tokens/{uid}.');
      if (logoutAll(query)) return { revoked: await revokeUserSessions(deps, auth.user.uid, { exceptIdHash: auth.session.id_hash }) };
      await revokeSession(deps, auth.session.id_hash);
    },
  }),
  route({
    method: 'GET',
    path: '/auth/me',
    permission: 'authenticated',
    allowDuringPasswordChange: true,
    summary: 'The signed-in account.',
    handler: async ({ deps, auth }) => accountView(deps.db, auth.user),
  }),
  route({
    method: 'POST',
    path: '/auth/password',
    permission: 'authenticated',
    allowDuringPasswordChange: true,
    summary: 'Change the password; other sessions are signed out.',
    body: z.object({ currentPassword: passwordField, newPassword: newPasswordField }),
    async handler({ ctx, deps, auth, body }) {
      if (!auth.user.password_hash) {
        throw forbidden('This account signs in through an identity provider and has no password to change.');
      }
      await verifyCurrentPassword(deps, ctx, auth.user, body.currentPassword);
      if (body.newPassword === body.currentPassword) {
        throw new AppError('VALIDATION_FAILED', 'The new password must differ from the current one.', { issues: [{ path: 'newPassword', message: 'must differ from the current password' }] });
      }
      await deps.db.kysely
        .updateTable('users')
        .set({ password_hash: await deps.hasher.hash(body.newPassword), must_change_password: 0, updated_at: deps.clock.now().toISOString() })
        .where('uid', '=', auth.user.uid)
        .execute();
      await revokeUserSessions(deps, auth.user.uid, { exceptIdHash: auth.session?.id_hash });
    },
  }),
];
