import { markup } from '../../markup.js';
import { renderMarkdownSubset } from '../markdown-subset.js';
import type { PublicStatus } from './public-status.js';
import { UPDATE_STATE_WORDS } from './render-status-page.js';
import { maintenanceEntries } from './render-maintenance.js';

/**
 * An entry's id per RFC 4287 (4.2.6): a tag URI (RFC 4151) of the page's host, the day the
 * incident opened (or the update was posted) and its uid, so it is unique and never changes.
 */
const entryId = (page: string, kind: 'incident' | 'update', uid: string, openedAt: string) =>
  `tag:${new URL(page).hostname},${openedAt.slice(0, 10)}:${kind}/${uid}`;

/**
 * The page's incidents and updates as an Atom feed, newest change first, then its maintenance,
 * with the page as its author. An update's entry carries its body as HTML (the escaped Markdown subset).
 */
export function renderIncidentFeed(status: PublicStatus, links: { page: string; feed: string }): string {
  const updates = status.updates.map((update) => ({
    updated: update.updatedAt,
    entry: markup`<entry>
<id>${entryId(links.page, 'update', update.uid, update.createdAt)}</id>
<title>${UPDATE_STATE_WORDS[update.state]}: ${update.title}</title>
<updated>${update.updatedAt}</updated>
<published>${update.createdAt}</published>
<link rel="alternate" href="${links.page}"/>
<content type="html">${renderMarkdownSubset(update.body).toString()}</content>
</entry>
`,
  }));
  const incidents = status.incidents.map((incident) => {
    const updated = incident.resolvedAt ?? incident.openedAt;
    const summary = incident.resolvedAt ? `Resolved at ${incident.resolvedAt}.` : `Opened at ${incident.openedAt}; ${incident.status}.`;
    return {
      updated,
      entry: markup`<entry>
<id>${entryId(links.page, 'incident', incident.uid, incident.openedAt)}</id>
<title>${incident.title} (${incident.status})</title>
<updated>${updated}</updated>
<published>${incident.openedAt}</published>
<link rel="alternate" href="${links.page}"/>
<summary>${summary}</summary>
</entry>
`,
    };
  });
  const entries = [...updates, ...incidents].sort((a, b) => (a.updated < b.updated ? 1 : a.updated > b.updated ? -1 : 0)).map((item) => item.entry);
  return markup`<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
<id>${links.feed}</id>
<title>${status.title}: incidents and updates</title>
<author><name>${status.title}</name><uri>${links.page}</uri></author>
<updated>${status.updatedAt}</updated>
<link rel="self" href="${links.feed}"/>
<link rel="alternate" href="${links.page}"/>
${entries}${maintenanceEntries(status.maintenance, links.page)}</feed>
`.toString();
}
