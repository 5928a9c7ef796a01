import type { Page, StatusPage } from '../../contract/index.js';
import type { CommandDeps } from '../context.js';
import { orgPath, resolveOrg } from './checks-org.js';
import { confirmed } from './confirm.js';

type StatusPagePage = Page<StatusPage>;

const pagePath = (org: string, slug: string) => `${orgPath(org)}/status-pages/${encodeURIComponent(slug)}`;

/** `svc status-pages list`: every status page, in creation order. */
export async function list(_options: unknown, deps: CommandDeps): Promise<void> {
  const org = await resolveOrg({}, deps);
  const client = deps.client();
  const pages: StatusPage[] = [];
  let cursor: string | null = null;
  do {
    const page: StatusPagePage = await client.get<StatusPagePage>(`${orgPath(org)}/status-pages`, { query: { limit: '200', cursor: cursor ?? undefined } });
    pages.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  if (deps.out.jsonMode) return deps.out.json(pages);
  if (pages.length === 0) return deps.out.info(`no status pages in ${org} (create one with svc status-pages create)`);
  deps.out.table(
    pages.map((page) => ({ ...page, visibility: page.public ? 'public' : 'members', count: page.checks.length })),
    [
      { key: 'slug', title: 'SLUG' },
      { key: 'title', title: 'TITLE' },
      { key: 'visibility', title: 'VISIBLE TO' },
      { key: 'count', title: 'CHECKS' },
    ],
  );
}

/** Where the page is read: the daemon's public page, its JSON and its Atom feed. */
export function publicUrl(baseUrl: string, org: string, slug: string): string {
  return new URL(`/status/${encodeURIComponent(org)}/${encodeURIComponent(slug)}`, baseUrl).toString();
}

/** Prints one page for people, with the address it is read at. */
function show(page: StatusPage, org: string, deps: CommandDeps): void {
  const { out } = deps;
  out.line(`${out.color.bold(page.title)} (${page.slug})  ${page.public ? 'public' : 'members only'}`);
  if (page.description) out.line(page.description);
  out.line(`checks     ${page.checks.join(', ') || '(none)'}`);
  const url = publicUrl(deps.client().baseUrl, org, page.slug);
  out.line(page.public ? `url        ${url}` : `url        ${url} (answers only once the page is public)`);
}

/** `svc status-pages get SLUG`. */
export async function get(options: { args: string[] }, deps: CommandDeps): Promise<void> {
  const org = await resolveOrg({}, deps);
  const page = await deps.client().get<StatusPage>(pagePath(org, options.args[0]));
  if (deps.out.jsonMode) return deps.out.json({ ...page, url: publicUrl(deps.client().baseUrl, org, page.slug) });
  show(page, org, deps);
}

interface CreateOptions {
  title: string;
  slug?: string;
  check?: string[];
  description?: string;
  public?: boolean;
}

/** `svc status-pages create --title T [--slug S] [--check SLUG]... [--public]`. */
export async function create(options: CreateOptions, deps: CommandDeps): Promise<void> {
  const org = await resolveOrg({}, deps);
  const page = await deps.client().post<StatusPage>(`${orgPath(org)}/status-pages`, {
    title: options.title,
    ...(options.slug ? { slug: options.slug } : {}),
    ...(options.description ? { description: options.description } : {}),
    public: Boolean(options.public),
    checks: options.check ?? [],
  });
  if (deps.out.jsonMode) return deps.out.json({ ...page, url: publicUrl(deps.client().baseUrl, org, page.slug) });
  deps.out.success(`created status page ${page.slug} in ${org}`);
  show(page, org, deps);
}

/** `svc status-pages delete SLUG`: asks first unless --yes. */
export async function remove(options: { args: string[] }, deps: CommandDeps): Promise<void> {
  const [slug] = options.args;
  const org = await resolveOrg({}, deps);
  if (!(await confirmed(`Delete status page ${slug} in ${org}?`, deps))) return;
  await deps.client().request('DELETE', pagePath(org, slug));
  if (deps.out.jsonMode) return deps.out.json({ deleted: slug, org });
  deps.out.success(`deleted status page ${slug}`);
}
