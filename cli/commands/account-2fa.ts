import QRCode from 'qrcode';
import type { CommandDeps } from '../context.js';
import { usageError } from '../errors.js';
import { readStdinPassword } from '../prompts.js';
import type { RecoveryCodes, TwoFactorSetup as Setup } from '../../contract/index.js';

/** A six-digit code from the app, or else a recovery code. */
const isAppCode = (code: string) => /^\d{6}$/.test(code.replace(/\s+/g, ''));

/**
 * `svc account 2fa enable`: starts enrolment, shows the QR code in the terminal (and the secret
 * for typing in), asks for the first code and prints the recovery codes once. Without a terminal
 * it stops after showing the QR; `--code` then confirms that pending enrolment.
 */
export async function enable(options: { code?: string }, deps: CommandDeps): Promise<void> {
  const api = deps.client();
  const { out } = deps;
  if (options.code === undefined) {
    const setup = await api.post<Setup>('/auth/2fa/setup');
    if (out.jsonMode) return out.json({ secret: setup.secret, otpauthUri: setup.otpauthUri, confirmWith: 'svc account 2fa enable --code <code>' });
    const fancy = Boolean(process.stdout.isTTY) && !('NO_COLOR' in deps.env);
    out.line(await QRCode.toString(setup.otpauthUri, { type: fancy ? 'terminal' : 'utf8', small: fancy, errorCorrectionLevel: 'M' }));
    out.line(`Scan the code with your authenticator app, or enter this secret: ${out.color.bold(setup.secret)}`);
    if (!deps.prompts.interactive) {
      out.line('Then confirm with the code the app shows: svc account 2fa enable --code <code>');
      return;
    }
  }
  const code = options.code ?? (await deps.prompts.text('Code shown by the app', '--code'));
  const { recoveryCodes } = await api.post<RecoveryCodes>('/auth/2fa/confirm', { code: code.trim() });
  if (out.jsonMode) return out.json({ twoFactorEnabled: true, recoveryCodes });
  out.success('two-factor sign-in is on');
  out.line('Recovery codes (each works once; keep them somewhere safe, they are not shown again):');
  for (const recovery of recoveryCodes) out.line(`  ${recovery}`);
}

/** `svc account 2fa disable`: turns 2FA off, proven by a current code, a recovery code or the password. */
export async function disable(options: { code?: string; passwordStdin?: boolean }, deps: CommandDeps): Promise<void> {
  if (options.code !== undefined && options.passwordStdin) throw usageError('give either --code or --password-stdin');
  let body: Record<string, string>;
  if (options.passwordStdin) {
    body = { currentPassword: await readStdinPassword() };
  } else {
    const code = (options.code ?? (await deps.prompts.text('Code from the app (or a recovery code)', '--code'))).trim();
    body = isAppCode(code) ? { code: code.replace(/\s+/g, '') } : { recoveryCode: code };
  }
  await deps.client().request('DELETE', '/auth/2fa', { body });
  if (deps.out.jsonMode) return deps.out.json({ twoFactorEnabled: false });
  deps.out.success('two-factor sign-in is off');
}
