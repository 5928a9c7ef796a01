import { ApiClient } from '../client.js';
import { saveCredentials } from '../config.js';
import type { CommandDeps } from '../context.js';
import { usageError } from '../errors.js';
import { askNewPassword } from '../new-password.js';
import { readStdinLines, requirePassword } from '../prompts.js';
import type { LoginAnswer, Session } from '../../contract/index.js';

interface Options {
  email?: string;
  passwordStdin?: boolean;
  newPasswordStdin?: boolean;
  code?: string;
}

/**
 * `svc login`: e-mail and password, then the two-factor code when the account asks for one, then
 * the new password when the built-in one must be changed; saves the session token.
 */
export async function run(options: Options, deps: CommandDeps): Promise<void> {
  const { url, profile } = deps.target();
  const api = new ApiClient(url);
  const stdinLines = options.passwordStdin ? await readStdinLines() : [];
  if (options.newPasswordStdin && !options.passwordStdin) throw usageError('--new-password-stdin goes with --password-stdin');

  const email = options.email ?? (await deps.prompts.text('E-mail', '--email'));
  const password = requirePassword(options.passwordStdin ? stdinLines[0] : await deps.prompts.password('Password', '--password-stdin'));

  let answer = await api.post<LoginAnswer>('/auth/login', { email, password });
  if ('mfaRequired' in answer) {
    const code = options.code ?? (await deps.prompts.text('Two-factor code (or a recovery code)', '--code'));
    const body = /^\d{6,8}$/.test(code.trim()) ? { mfaToken: answer.mfaToken, code: code.trim() } : { mfaToken: answer.mfaToken, recoveryCode: code.trim() };
    answer = await api.post<Session>('/auth/2fa/verify', body);
  }
  const session = answer as Session;

  if (session.user.mustChangePassword) {
    deps.out.info('This account still has its built-in password; choose a new one.');
    const newPassword = options.newPasswordStdin ? stdinLines[1] : await askNewPassword(deps, password);
    if (!newPassword) throw usageError('no new password given on the second line of standard input');
    await new ApiClient(url, session.accessToken).post('/auth/password', { currentPassword: password, newPassword });
  }

  const path = saveCredentials({ url, token: session.accessToken, email: session.user.email }, deps.env, profile);
  if (deps.out.jsonMode) deps.out.json({ url, email: session.user.email, expiresAt: session.expiresAt, credentials: path, profile });
  else deps.out.success(`signed in to ${url} as ${session.user.email} (profile ${profile}, token saved in ${path}, valid until ${session.expiresAt})`);
}
