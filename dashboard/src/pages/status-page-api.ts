import { get } from '../api/client';
import type { MonitoredCheck, Page } from '../api/types';

/** A status page, and what the public page shows (`/public/status/...`, or `.../preview` for members). */
export type { PublicStatus, StatusPage } from '../api/types';

export const statusPagesPath = (org: string) => `/orgs/${encodeURIComponent(org)}/status-pages`;

/** The page's public address: the dashboard is served at the service's base address. */
export const publicPageUrl = (org: string, slug: string): string => `${window.location.origin}/status/${encodeURIComponent(org)}/${encodeURIComponent(slug)}`;

/** The badge snippets of one check, to paste into a README (Markdown) or a web page (HTML). */
export function badgeSnippets(org: string, check: { slug: string; name: string }, pageUrl: string): Array<{ label: string; text: string }> {
  const base = `${window.location.origin}/api/v1/public/badges/${encodeURIComponent(org)}/${encodeURIComponent(check.slug)}`;
  const status = `${base}/status.svg`;
  const uptime = `${base}/uptime.svg?window=30d`;
  const alt = check.name.replace(/[[\]"<>&]/g, '');
  return [
    { label: 'Markdown, state', text: `[![${alt}: state](${status})](${pageUrl})` },
    { label: 'Markdown, uptime 30 days', text: `[![${alt}: uptime](${uptime})](${pageUrl})` },
    { label: 'HTML, state', text: `<a href="${pageUrl}"><img src="${status}" alt="${alt}: state"></a>` },
    { label: 'HTML, uptime 30 days', text: `<a href="${pageUrl}"><img src="${uptime}" alt="${alt}: uptime"></a>` },
  ];
}

/** Every check of the organization (slug and name), following the list's pages. */
export async function allChecks(org: string): Promise<Array<{ slug: string; name: string }>> {
  const out: Array<{ slug: string; name: string }> = [];
  let cursor: string | null = null;
  do {
    const query: string = `?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const page: Page<MonitoredCheck> = await get(`/orgs/${encodeURIComponent(org)}/checks${query}`);
    out.push(...page.items.map(({ slug, name }) => ({ slug, name })));
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}
