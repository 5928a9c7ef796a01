import type { Page, SystemUser } from '../../contract/index.js';
import type { ApiClient } from '../client.js';
import { CliError } from '../errors.js';

/** An e-mail address is looked up; anything else is taken as the account's uid. */
export async function resolveUser(client: ApiClient, user: string): Promise<string> {
  if (!user.includes('@')) return user;
  const page = await client.get<Page<SystemUser>>('/system/users', { query: { email: user } });
  if (page.items.length === 0) throw new CliError(`no account has the e-mail address ${user}`);
  return page.items[0].uid;
}
