import { z } from 'zod';
import { requireSession } from '../access/session-only.js';
import { verifyCurrentPassword } from '../auth/password-login.js';
import { acceptTotpCode, limitedSecondFactor, newTotpSecret } from '../auth/totp.js';
import { completeSecondFactor, totpSecretOf } from '../auth/totp-login.js';
import { consumeRecoveryCode, deleteRecoveryCodes, issueRecoveryCodes } from '../auth/totp-recovery.js';
import { AppError, conflict, validationFailed } from '../errors.js';
import { route, type RouteSpec } from '../http/route.js';

const codeField = z.string().trim().min(1, 'is required').max(64);

/** Two-factor (TOTP): enrolment, the login step and turning it off. */
export const twoFactorRoutes: RouteSpec[] = [
  route({
    method: 'POST',
    path: '/auth/2fa/setup',
    permission: 'authenticated',
    response: 'TwoFactorSetup',
    summary: 'Start enrolment: a new secret, its otpauth URI and a QR code (SVG); pending until confirmed.',
    async handler({ deps, auth }) {
      // A leaked token must not be able to lock its owner out with a second factor of its own.
      requireSession(auth, 'Two-factor enrolment');
      const enabled = await deps.db.kysely.selectFrom('users').select('totp_secret').where('uid', '=', auth.user.uid).executeTakeFirst();
      if (enabled?.totp_secret) throw conflict('TWO_FACTOR_ENABLED', 'Two-factor sign-in is already on; turn it off first to enrol again.');
      const { secret, otpauthUri } = newTotpSecret(auth.user.email);
      await deps.db.kysely
        .updateTable('users')
        .set({ totp_pending_secret: deps.keyring.encrypt(secret) })
        .where('uid', '=', auth.user.uid)
        .execute();
      const { default: QRCode } = await import('qrcode');
      const qrSvg = await QRCode.toString(otpauthUri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
      return { secret, otpauthUri, qrSvg };
    },
  }),
  route({
    method: 'POST',
    path: '/auth/2fa/confirm',
    permission: 'authenticated',
    response: 'RecoveryCodes',
    summary: 'Confirm enrolment with a code from the app; answers the 10 recovery codes, shown once.',
    body: z.object({ code: codeField }),
    async handler({ deps, auth, body }) {
      requireSession(auth, 'Two-factor enrolment');
      const row = await deps.db.kysely.selectFrom('users').select(['totp_secret', 'totp_pending_secret']).where('uid', '=', auth.user.uid).executeTakeFirst();
      if (row?.totp_secret) throw conflict('TWO_FACTOR_ENABLED', 'Two-factor sign-in is already on.');
      const pending = row?.totp_pending_secret;
      if (!pending) throw conflict('NO_PENDING_SETUP', 'Start with POST /api/v1/auth/2fa/setup.');
      await limitedSecondFactor(deps, auth.user.uid, () => acceptTotpCode(deps, auth.user.uid, deps.keyring.reveal(pending), body.code));
      const now = deps.clock.now().toISOString();
      // Only the secret that was checked is promoted (its ciphertext as stored): a setup started
      // meanwhile wins nothing.
      const promoted = await deps.db.kysely
        .updateTable('users')
        .set({ totp_secret: pending, totp_pending_secret: null, totp_enabled_at: now, updated_at: now })
        .where('uid', '=', auth.user.uid)
        .where('totp_pending_secret', '=', pending)
        .where('totp_secret', 'is', null)
        .returning('uid')
        .executeTakeFirst();
      if (!promoted) throw conflict('NO_PENDING_SETUP', 'The enrolment changed meanwhile; start again with POST /api/v1/auth/2fa/setup.');
      deps.logger.info({ user: auth.user.uid }, 'two-factor sign-in turned on');
      return { recoveryCodes: await issueRecoveryCodes(deps, auth.user.uid) };
    },
  }),
  route({
    method: 'POST',
    path: '/auth/2fa/verify',
    permission: 'public',
    response: 'Session',
    summary: 'Second sign-in step: the mfaToken with an authenticator code or a recovery code; answers the session.',
    body: z
      .object({ mfaToken: z.string().min(1).max(4096), code: codeField.optional(), recoveryCode: codeField.optional() })
      .refine((b) => (b.code === undefined) !== (b.recoveryCode === undefined), { message: 'send either code or recoveryCode', path: ['code'] }),
    handler: ({ ctx, deps, body }) => completeSecondFactor(deps, ctx, body),
  }),
  route({
    method: 'DELETE',
    path: '/auth/2fa',
    permission: 'authenticated',
    summary: 'Turn two-factor sign-in off, proven by a current code, a recovery code or the password.',
    body: z.object({ code: codeField.optional(), recoveryCode: codeField.optional(), currentPassword: z.string().min(1).max(1024).optional() }),
    async handler({ ctx, deps, auth, body }) {
      requireSession(auth, 'Turning two-factor sign-in off');
      const given = [body.code, body.recoveryCode, body.currentPassword].filter((v) => v !== undefined).length;
      if (given !== 1) throw validationFailed([{ path: 'code', message: 'send exactly one of code, recoveryCode or currentPassword' }]);
      const secret = await totpSecretOf(deps, auth.user.uid);
      if (!secret) throw conflict('TWO_FACTOR_DISABLED', 'Two-factor sign-in is not on.');
      if (body.currentPassword !== undefined) {
        if (!auth.user.has_password) throw new AppError('FORBIDDEN', 'This account has no password; confirm with a two-factor code.');
        await verifyCurrentPassword(deps, ctx, auth.user, body.currentPassword);
      } else {
        await limitedSecondFactor(deps, auth.user.uid, () =>
          body.code !== undefined ? acceptTotpCode(deps, auth.user.uid, secret, body.code) : consumeRecoveryCode(deps, auth.user.uid, body.recoveryCode!),
        );
      }
      await deps.db.kysely
        .updateTable('users')
        .set({ totp_secret: null, totp_pending_secret: null, totp_enabled_at: null, updated_at: deps.clock.now().toISOString() })
        .where('uid', '=', auth.user.uid)
        .execute();
      await deleteRecoveryCodes(deps, auth.user.uid);
      await deps.db.kysely.deleteFrom('totp_used_steps').where('user_uid', '=', auth.user.uid).execute();
      deps.logger.info({ user: auth.user.uid }, 'two-factor sign-in turned off');
    },
  }),
];
