import type { CommandDeps } from '../context.js';
import { usageError } from '../errors.js';

/**
 * The organization an org-scoped command acts on: `--org`, else `SVC_ORG`, else the only
 * organization the account belongs to. With several and none chosen it is a usage error that
 * lists them, rather than a guess.
 */
export async function resolveOrg(options: { org?: string }, deps: CommandDeps): Promise<string> {
  const chosen = options.org || deps.env.SVC_ORG;
  if (chosen) return chosen;
  const me = await deps.client().get<{ organizations: { slug: string }[] }>('/auth/me');
  if (me.organizations.length === 1) return me.organizations[0].slug;
  if (me.organizations.length === 0) throw usageError('this account belongs to no organization');
  throw usageError(`this account belongs to several organizations (${me.organizations.map((o) => o.slug).join(', ')}): pass --org or set SVC_ORG`);
}

/** An organization slug as a URL path segment. */
export const orgPath = (org: string): string => `/orgs/${encodeURIComponent(org)}`;
