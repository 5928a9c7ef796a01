import { z } from 'zod';
import { requireSession } from '../access/session-only.js';
import { callerAccount } from '../access/caller-account.js';
import { accountView } from '../accounts/account.js';
import { verifyCurrentPassword, verifyLogin } from '../auth/password-login.js';
import { refuseWhereSamlRequired } from '../auth/saml/saml-required.js';
import { emailField, newPasswordField, passwordField } from '../auth/schemas.js';
import { changePassword } from '../accounts/password-change.js';
import { revokeSession, revokeUserSessions } from '../auth/sessions.js';
import { afterRegistration, reserveRegistration } from '../accounts/registration.js';
import { sessionOrChallenge } from '../auth/totp-login.js';
import { createUser } from '../accounts/users.js';
import { AppError, forbidden } from '../errors.js';
import { plainNameField } from '../plain-text.js';
import { registrationPatternAllows } from '../accounts/registration-pattern.js';
import { route, type RouteSpec } from '../http/route.js';
import { logoutAll } from './sessions.js';

/** Registration, password sign-in, sign-out, the account and its password. */
export const authRoutes: RouteSpec[] = [
  route({
    method: 'POST',
    path: '/auth/register',
    permission: 'public',
    response: 'Registered',
    summary: 'Create an account with e-mail and password (limited per client address: 429 with Retry-After).',
    body: z.object({ email: emailField, password: newPasswordField, name: plainNameField(200, { allowEmpty: true }).optional() }),
    status: 201,
    async handler({ ctx, deps, body }) {
      await reserveRegistration(deps, ctx);
      if (!(await registrationPatternAllows(deps, body.email.toLowerCase()))) {
        throw forbidden('Registration is not open to this e-mail address.');
      }
      const user = await createUser(deps, { email: body.email, name: body.name, passwordHash: await deps.hasher.hash(body.password) });
      await afterRegistration(deps, user);
      return { user: await accountView(deps.db, callerAccount(user)) };
    },
  }),
  route({
    method: 'POST',
    path: '/auth/login',
    permission: 'public',
    response: 'LoginAnswer',
    summary: 'Sign in with e-mail and password.',
    body: z.object({ email: z.string().max(254), password: passwordField }),
    async handler({ ctx, deps, body }) {
      const { user, method } = await verifyLogin(deps, ctx, body.email, body.password);
      await refuseWhereSamlRequired(deps, user, method);
      // An account with 2FA gets {mfaRequired, mfaToken} for /auth/2fa/verify instead of a session.
      return sessionOrChallenge(deps, user, method, ctx);
    },
  }),
  route({
    method: 'POST',
    path: '/auth/logout',
    permission: 'authenticated',
    response: 'Revoked',
    emptyAnswer: true,
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
    response: 'Account',
    allowDuringPasswordChange: true,
    summary: 'The signed-in account; with a personal access token, also the organization it reaches (tokenOrganization).',
    handler: async ({ deps, auth }) => accountView(deps.db, auth.user, auth.token?.organizationUid),
  }),
  route({
    method: 'POST',
    path: '/auth/password',
    permission: 'authenticated',
    allowDuringPasswordChange: true,
    summary: 'Change the password; other sessions are signed out, and with `revokeTokens: true` every personal access token is revoked.',
    body: z.object({ currentPassword: passwordField, newPassword: newPasswordField, revokeTokens: z.boolean().optional() }),
    async handler({ ctx, deps, auth, body }) {
      requireSession(auth, 'Changing the password');
      if (!auth.user.has_password) {
        throw forbidden('This account signs in through an identity provider and has no password to change.');
      }
      await verifyCurrentPassword(deps, ctx, auth.user, body.currentPassword);
      if (body.newPassword === body.currentPassword) {
        throw new AppError('VALIDATION_FAILED', 'The new password must differ from the current one.', {
          issues: [{ path: 'newPassword', message: 'must differ from the current password' }],
        });
      }
      await changePassword(deps, { user: auth.user, newPassword: body.newPassword, keepSession: auth.session, revokeTokens: body.revokeTokens === true });
    },
  }),
];
