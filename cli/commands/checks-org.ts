import type { Account } from '../../contract/index.js';
import type { ApiClient } from '../client.js';
import type { CommandDeps } from '../context.js';
import { usageError } from '../errors.js';

/** The organization chosen explicitly: `--org` (the command's or the global one), else `SVC_ORG`. */
export const chosenOrg = (options: { org?: string }, deps: CommandDeps): string | undefined => options.org || deps.globals.org || deps.env.SVC_ORG;

/** The slugs of the signed-in account's organizations; belonging to none is a usage error. */
export async function accountOrgs(client: ApiClient): Promise<string[]> {
  const me = await client.get<Account>('/auth/me');
  const slugs = me.organizations.map((org) => org.slug);
  if (slugs.length === 0) throw usageError('this account belongs to no organization');
  return slugs;
}

/** Several organizations and none chosen: a usage error that lists them, rather than a guess. */
export const severalOrgsError = (slugs: string[]) =>
  usageError(`this account belongs to several organizations (${slugs.join(', ')}): pass --org or set SVC_ORG`);

/**
 * The organization an org-scoped command acts on: `--org`, else `SVC_ORG`, else the only
 * organization the account belongs to. With several and none chosen it is a usage error that
 * lists them, rather than a guess.
 */
export async function resolveOrg(options: { org?: string }, deps: CommandDeps): Promise<string> {
  const chosen = chosenOrg(options, deps);
  if (chosen) return chosen;
  const slugs = await accountOrgs(deps.client());
  if (slugs.length === 1) return slugs[0];
  throw severalOrgsError(slugs);
}

/** An organization slug as a URL path segment. */
export const orgPath = (org: string): string => `/orgs/${encodeURIComponent(org)}`;
