import { ApiError, type ApiClient } from '../client.js';
import type { CommandDeps } from '../context.js';
import { usageError } from '../errors.js';
import { orgPath } from './checks-org.js';

const PERSONAL_TOKEN_PREFIX = 'svc_pat_';

/**
 * The organization an import goes to: `--org`, else `SVC_ORG`, else the account's only
 * organization, else the one a personal access token is bound to (the only one it may reach),
 * else `default` when the account belongs to it. Several and no way to choose is a usage
 * error listing them, rather than a guess that would write into the wrong place.
 */
export async function resolveImportOrg(options: { org?: string }, deps: CommandDeps, client: ApiClient): Promise<string> {
  const chosen = options.org || deps.env.SVC_ORG;
  if (chosen) return chosen;
  const me = await client.get<{ organizations: { slug: string }[] }>('/auth/me');
  const slugs = me.organizations.map((org) => org.slug);
  if (slugs.length === 1) return slugs[0];
  if (slugs.length === 0) throw usageError('this account belongs to no organization');
  if (client.token?.startsWith(PERSONAL_TOKEN_PREFIX)) {
    for (const slug of slugs) {
      try {
        await client.get(orgPath(slug));
        return slug;
      } catch (error) {
        // 403: the token belongs to another organization of the account; try the next.
        if (!(error instanceof ApiError) || error.status !== 403) throw error;
      }
    }
  }
  if (slugs.includes('default')) return 'default';
  throw usageError(`this account belongs to several organizations (${slugs.join(', ')}): pass --org or set SVC_ORG`);
}
