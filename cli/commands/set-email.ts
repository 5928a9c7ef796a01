import type { CommandDeps } from '../context.js';
import { usageError } from '../errors.js';
import { readStdinPassword } from '../prompts.js';
import { resolveUser } from './user-lookup.js';
import type { Account } from '../../contract/index.js';

function report(deps: CommandDeps, account: Account, consequences: string): void {
  if (deps.out.jsonMode) return deps.out.json(account);
  deps.out.success(`e-mail address changed to ${account.email} (not verified yet)`);
  deps.out.info(consequences);
}

/**
 * `svc account set-email NEW`: changes your own sign-in address; asks for the current password
 * (or reads it from standard input with --password-stdin).
 */
export async function self(options: { args: string[]; passwordStdin?: boolean }, deps: CommandDeps): Promise<void> {
  const [email] = options.args;
  const currentPassword = options.passwordStdin ? await readStdinPassword() : await deps.prompts.password('Current password', '--password-stdin');
  const account = await deps.client().request<Account>('PATCH', '/auth/me', { body: { email, currentPassword } });
  report(deps, account, 'Your other sessions were signed out. Confirm the new address with the link mailed to it (when the daemon sends mail).');
}

/** `svc admin user set-email --user <uid|email> --email NEW`: any account's address (super admin, no password). */
export async function admin(options: { user?: string; email?: string }, deps: CommandDeps): Promise<void> {
  if (!options.user) throw usageError('--user <uid|email> is required');
  if (!options.email) throw usageError('--email is required');
  const client = deps.client();
  const uid = await resolveUser(client, options.user);
  const account = await client.request<Account>('PATCH', `/system/users/${encodeURIComponent(uid)}`, { body: { email: options.email } });
  report(
    deps,
    account,
    'Every session of that account was signed out; the previous address got a notice and the new one a verification link (when the daemon sends mail).',
  );
}
