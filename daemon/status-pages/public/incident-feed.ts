import { markup } from '../../markup.js';
import type { PublicStatus } from './public-status.js';
import { maintenanceEntries } from './render-maintenance.js';

/**
 * An entry's id per RFC 4287 (4.2.6): a tag URI (RFC 4151) of the page's host, the day the
 * incident opened and its uid, so it is unique per incident and never changes.
 */
const entryId = (page: string, uid: string, openedAt: string) => `tag:${new URL(page).hostname},${openedAt.slice(0, 10)}:incident/${uid}`;

/** The page's incidents as an Atom feed, newest first, then its maintenance, with the page as its author. */
export function renderIncidentFeed(status: PublicStatus, links: { page: string; feed: string }): string {
  const entries = status.incidents.map((incident) => {
    const updated = incident.resolvedAt ?? incident.openedAt;
    const summary = incident.resolvedAt ? `Resolved at ${incident.resolvedAt}.` : `Opened at ${incident.openedAt}; ${incident.status}.`;
    return markup`<entry>
<id>${entryId(links.page, incident.uid, incident.openedAt)}</id>
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
<author><name>${status.title}</name><uri>${links.page}</uri></author>
<updated>${status.updatedAt}</updated>
<link rel="self" href="${links.feed}"/>
<link rel="alternate" href="${links.page}"/>
${entries}${maintenanceEntries(status.maintenance, links.page)}</feed>
`.toString();
}
