import type { PasswordResetIssued } from '../../contract/index.js';
import type { CommandDeps } from '../context.js';
import { usageError } from '../errors.js';
import { resolveUser } from './user-lookup.js';

/**
 * `svc admin user reset-password --user <uid|email>`: issues a reset link for any account. The
 * daemon mails it when it can; otherwise it hands the link back, to pass on by other means.
 */
export async function run(options: { user?: string }, deps: CommandDeps): Promise<void> {
  if (!options.user) throw usageError('--user <uid|email> is required');
  const client = deps.client();
  const uid = await resolveUser(client, options.user);
  const answer = await client.post<PasswordResetIssued>(`/system/users/${encodeURIComponent(uid)}/password-reset`);
  if (deps.out.jsonMode) return deps.out.json(answer);
  if (answer.mailed) return deps.out.success(`a password reset link was mailed to ${answer.email}; it works once, until ${answer.expiresAt}`);
  deps.out.warn('the daemon sends no mail (SVC_SMTP_URL is unset): pass this link on yourself, privately');
  deps.out.line(`Reset link for ${answer.email} (works once, until ${answer.expiresAt}):`);
  deps.out.line(answer.url ?? '');
}
