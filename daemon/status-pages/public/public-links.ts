/** The public address of a status page and of its Atom feed, under `SVC_BASE_URL`. */
export function publicPageLinks(baseUrl: string, orgSlug: string, pageSlug: string): { page: string; feed: string } {
  const page = `${baseUrl.replace(/\/+$/, '')}/status/${encodeURIComponent(orgSlug)}/${encodeURIComponent(pageSlug)}`;
  return { page, feed: `${page}/feed.atom` };
}

/** The links a subscriber's mail carries: confirm the subscription, or end it (GET shows a button, POST acts). */
export function subscriptionLinks(baseUrl: string, orgSlug: string, pageSlug: string, token: string): { confirm: string; unsubscribe: string } {
  const { page } = publicPageLinks(baseUrl, orgSlug, pageSlug);
  return { confirm: `${page}/confirm/${token}`, unsubscribe: `${page}/unsubscribe/${token}` };
}
