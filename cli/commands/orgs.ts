import type { List, Organization, OrganizationSummary } from '../../contract/index.js';
import type { CommandDeps } from '../context.js';

/** A slug from a name, as the daemon's rules want it: lower-case letters, digits and inner hyphens. */
export const orgSlugFrom = (name: string): string =>
  name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/, '');

/** `svc orgs list`: the caller's organizations. */
export async function list(_options: unknown, deps: CommandDeps): Promise<void> {
  const { items } = await deps.client().get<List<OrganizationSummary>>('/orgs');
  if (deps.out.jsonMode) return deps.out.json(items);
  if (items.length === 0) return deps.out.info('member of no organization (create one with svc orgs create)');
  deps.out.table(items, [
    { key: 'slug', title: 'SLUG' },
    { key: 'name', title: 'NAME' },
    { key: 'role', title: 'ROLE' },
    { key: 'createdAt', title: 'CREATED' },
  ]);
}

/** `svc orgs create --name N [--slug S]`: the caller becomes its owner. */
export async function create(options: { name: string; slug?: string }, deps: CommandDeps): Promise<void> {
  const slug = options.slug ?? orgSlugFrom(options.name);
  const org = await deps.client().post<Organization>('/orgs', { name: options.name, slug });
  if (deps.out.jsonMode) return deps.out.json(org);
  deps.out.success(`created organization ${org.slug} (${org.name}); you are its owner`);
}
