import { markup, type Markup } from '../../markup.js';
import type { PublicMaintenance } from './public-maintenance.js';

// The maintenance of a public page: its section of the HTML page and its entries in the feed.

/**
 * The section listing maintenance under way and scheduled; nothing when there is none. `when`
 * writes a time as the page writes its times.
 */
export function maintenanceSection(windows: readonly PublicMaintenance[], when: (iso: string) => Markup): Markup | '' {
  if (windows.length === 0) return '';
  return markup`<section aria-labelledby="maintenance-title">
<h2 id="maintenance-title">Maintenance</h2>
<ol class="incidents maintenance">${windows.map(
    (window) =>
      markup`<li><strong>${window.title}</strong> <span class="muted">(${window.active ? 'in progress' : 'scheduled'})</span><br><span class="muted">${when(window.startsAt)} to ${when(window.endsAt)} · ${window.checks.join(', ')}</span>${window.description ? markup`<br>${window.description}` : ''}</li>`,
  )}</ol>
</section>
`;
}

/** An occurrence's id per RFC 4287 (4.2.6): a tag URI of the page's host, its start day, the window and its start. */
const entryId = (page: string, window: PublicMaintenance) =>
  `tag:${new URL(page).hostname},${window.startsAt.slice(0, 10)}:maintenance/${window.uid}/${window.startsAt}`;

/** The Atom entries of the maintenance under way and scheduled, one per occurrence shown. */
export function maintenanceEntries(windows: readonly PublicMaintenance[], page: string): Markup[] {
  return windows.map((window) => {
    const updated = window.active && window.startsAt > window.updatedAt ? window.startsAt : window.updatedAt;
    const summary = `${window.active ? 'In progress' : 'Scheduled'} from ${window.startsAt} to ${window.endsAt}; affects ${window.checks.join(', ')}.${window.description ? ` ${window.description}` : ''}`;
    return markup`<entry>
<id>${entryId(page, window)}</id>
<title>Maintenance: ${window.title} (${window.active ? 'in progress' : 'scheduled'})</title>
<updated>${updated}</updated>
<published>${window.updatedAt}</published>
<link rel="alternate" href="${page}"/>
<summary>${summary}</summary>
</entry>
`;
  });
}
