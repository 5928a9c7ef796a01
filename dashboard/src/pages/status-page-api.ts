import { get } from '../api/client';

/** A status page as the API answers it. */
export interface StatusPage {
  slug: string;
  title: string;
  description: string | null;
  public: boolean;
  /** Slugs of the checks shown, in page order. */
  checks: string[];
  createdAt: string;
  updatedAt: string;
}

/** What the public page shows (`/public/status/...`, or `.../preview` for members). */
export interface PublicStatus {
  title: string;
  description: string | null;
  state: 'operational' | 'degraded' | 'partial outage' | 'major outage';
  checks: Array<{ name: string; state: string; uptime90d: number | null; days: Array<{ date: string; uptimePercent: number | null }> }>;
  incidents: Array<{ title: string; status: string; openedAt: string; resolvedAt: string | null }>;
}

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
    const page: { items: Array<{ slug: string; name: string }>; nextCursor: string | null } = await get(`/orgs/${encodeURIComponent(org)}/checks${query}`);
    out.push(...page.items.map(({ slug, name }) => ({ slug, name })));
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}
