import { escapeHtml } from './render-status-page.js';
import type { PublicStatus } from './public-status.js';

/** The page's incidents as an Atom feed, newest first. */
export function renderIncidentFeed(status: PublicStatus, links: { page: string; feed: string }): string {
  const entries = status.incidents
    .map((incident) => {
      const updated = incident.resolvedAt ?? incident.openedAt;
      const summary = incident.resolvedAt ? `Resolved at ${incident.resolvedAt}.` : `Opened at ${incident.openedAt}; ${incident.status}.`;
      return `<entry>
<id>${escapeHtml(`${links.page}#incident-${incident.openedAt}`)}</id>
<title>${escapeHtml(incident.title)} (${incident.status})</title>
<updated>${escapeHtml(updated)}</updated>
<published>${escapeHtml(incident.openedAt)}</published>
<link rel="alternate" href="${escapeHtml(links.page)}"/>
<summary>${escapeHtml(summary)}</summary>
</entry>`;
    })
    .join('\n');
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
<id>${escapeHtml(links.feed)}</id>
<title>${escapeHtml(status.title)}: incidents</title>
<updated>${escapeHtml(status.updatedAt)}</updated>
<link rel="self" href="${escapeHtml(links.feed)}"/>
<link rel="alternate" href="${escapeHtml(links.page)}"/>
${entries}
</feed>
`;
}
