/** The public address of a status page and of its Atom feed, under `SVC_BASE_URL`. */
export function publicPageLinks(baseUrl: string, orgSlug: string, pageSlug: string): { page: string; feed: string } {
  const page = `${baseUrl.replace(/\/+$/, '')}/status/${encodeURIComponent(orgSlug)}/${encodeURIComponent(pageSlug)}`;
  return { page, feed: `${page}/feed.atom` };
}
