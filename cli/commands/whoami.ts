import type { CommandDeps } from '../context.js';
import type { Account } from '../../contract/index.js';

/** `svc whoami`: the signed-in account. */
export async function run(_options: unknown, deps: CommandDeps): Promise<void> {
  const me = await deps.client().get<Account>('/auth/me');
  if (deps.out.jsonMode) return deps.out.json(me);
  const { out } = deps;
  out.line(`${out.color.bold(me.email)} (${me.name})${me.superAdmin ? out.color.cyan(' super admin') : ''} on ${deps.target().url}`);
  out.line(`e-mail ${me.emailVerified ? 'verified' : 'not verified'}, two-factor ${me.twoFactorEnabled ? 'on' : 'off'}`);
  if (me.organizations.length === 0) return out.line('member of no organization');
  out.line();
  out.table(me.organizations, [
    { key: 'slug', title: 'ORGANIZATION' },
    { key: 'name', title: 'NAME' },
    { key: 'role', title: 'ROLE' },
  ]);
}
