import { markup } from '../../markup.js';
import type { PublicStatus } from './public-status.js';

/** The page's incidents as an Atom feed, newest first. */
export function renderIncidentFeed(status: PublicStatus, links: { page: string; feed: string }): string {
  const entries = status.incidents.map((incident) => {
    const updated = incident.resolvedAt ?? incident.openedAt;
    const summary = incident.resolvedAt ? `Resolved at ${incident.resolvedAt}.` : `Opened at ${incident.openedAt}; ${incident.status}.`;
    return markup`<entry>
<id>${links.page}#incident-${incident.openedAt}</id>
<title>${incident.title} (${incident.status})</title>
<updated>${updated}</updated>
<published>${incident.openedAt}</published>
<link rel="alternate" href="${links.page}"/>
<summary>${summary}</summary>
</entry>
`;
  });
  return markup`<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
<id>${links.feed}</id>
<title>${status.title}: incidents</title>
<updated>${status.updatedAt}</updated>
<link rel="self" href="${links.feed}"/>
<link rel="alternate" href="${links.page}"/>
${entries}</feed>
`.toString();
}
