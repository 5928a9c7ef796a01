import { markup, raw, type Markup } from '../../markup.js';
import type { PublicCheck, PublicStatus, PublicUpdate } from './public-status.js';
import { maintenanceSection } from './render-maintenance.js';
import { STATUS_PAGE_CSS } from './status-page-style.js';
import { renderMarkdownSubset } from '../markdown-subset.js';

const STATE_WORDS: Record<string, string> = {
  up: 'Operational',
  degraded: 'Degraded performance',
  down: 'Down',
  paused: 'Paused',
  pending: 'No data yet',
  maintenance: 'Under maintenance',
  operational: 'All systems operational',
  'partial outage': 'Partial outage',
  'major outage': 'Major outage',
};

/** The words of an update's state. */
export const UPDATE_STATE_WORDS: Record<PublicUpdate['state'], string> = {
  investigating: 'Investigating',
  identified: 'Identified',
  monitoring: 'Monitoring',
  resolved: 'Resolved',
  maintenance: 'Maintenance',
};

const stateClass = (state: string) => `s-${state.replace(/\s+/g, '-')}`;

/** An uptime percent with two decimals, as the dashboard shows it: "99.95 %". */
const percent = (value: number) => `${value.toFixed(2)} %`;

/**
 * The dashboard's date format (month named, to the minute, time zone shown). The page is cached
 * and runs no script, so it cannot know the reader's zone: it shows UTC and says so.
 */
const DATE_FORMAT = new Intl.DateTimeFormat('en', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZoneName: 'short',
  timeZone: 'UTC',
});

const dayLevel = (uptime: number | null) => (uptime === null ? 'none' : uptime >= 99.9 ? 'up' : uptime >= 95 ? 'degraded' : 'down');

/**
 * A day's cell: its colour class and its uptime in its title (what a pointer shows). The bar is
 * hidden from screen readers, which get the same facts once as a sentence (`barSummary`) rather
 * than 90 cells read one by one; that also keeps a 50-check page small.
 */
function dayCell(day: PublicCheck['days'][number]): Markup {
  const words = day.uptimePercent === null ? 'no data' : `${percent(day.uptimePercent)} uptime`;
  return markup`<li class="d-${dayLevel(day.uptimePercent)}" title="${day.date}: ${words}"></li>`;
}

/**
 * The day cells of one page, each written once: the checks of a page share their dates, and most
 * of their days the same uptime (all of it), so a 50-check page of 4,500 cells has a few hundred
 * different ones.
 */
function dayCells(): (day: PublicCheck['days'][number]) => Markup {
  const written = new Map<string, Markup>();
  return (day) => {
    const key = `${day.date} ${day.uptimePercent}`;
    let cell = written.get(key);
    if (!cell) written.set(key, (cell = dayCell(day)));
    return cell;
  };
}

/** The bar in words: the days below full uptime, or that there were none. */
function barSummary(check: PublicCheck): string {
  const bad = check.days.filter((day) => day.uptimePercent !== null && day.uptimePercent < 99.9);
  if (bad.length === 0) return 'No day of the last 90 below 99.90 % uptime.';
  return `Days below 99.90 % uptime: ${bad.map((day) => `${day.date} (${percent(day.uptimePercent as number)})`).join(', ')}.`;
}

function checkItem(check: PublicCheck, cell: (day: PublicCheck['days'][number]) => Markup): Markup {
  const uptime = check.uptime90d === null ? 'no data' : `${percent(check.uptime90d)} uptime`;
  return markup`<li>
<div class="check-head"><span class="name">${check.name}</span><span class="state ${check.state}">${STATE_WORDS[check.state]}${check.updateState ? markup` <span class="u-state u-${check.updateState}">${UPDATE_STATE_WORDS[check.updateState]}</span>` : ''}</span></div>
<ol class="bar" aria-hidden="true">${check.days.map(cell)}</ol>
<p class="visually-hidden">${barSummary(check)}</p>
<div class="bar-legend"><span>90 days ago</span><span>${uptime}</span><span>Today</span></div>
</li>`;
}

const when = (iso: string) => markup`<time datetime="${iso}">${DATE_FORMAT.format(new Date(iso))}</time>`;

/** One update: its state, title, body (the Markdown subset, escaped), the checks it names and when. */
function updateItem(update: PublicUpdate): Markup {
  const times = update.resolvedAt
    ? markup`Posted ${when(update.createdAt)}, resolved ${when(update.resolvedAt)}`
    : markup`Posted ${when(update.createdAt)}${update.updatedAt !== update.createdAt ? markup`, updated ${when(update.updatedAt)}` : ''}`;
  return markup`<li class="update u-${update.state}">
<div class="update-head"><span class="u-state u-${update.state}">${UPDATE_STATE_WORDS[update.state]}</span> <strong>${update.title}</strong></div>
<div class="update-body">${renderMarkdownSubset(update.body)}</div>
${update.checks.length ? markup`<p class="muted">Affects: ${update.checks.join(', ')}</p>` : ''}<p class="muted">${times}</p>
</li>`;
}

/** Where a status page's feed is, and where its form subscribes (absent when the server sends no mail). */
export interface StatusPageLinks {
  feed: string;
  subscribe?: string;
}

/**
 * The public status page as one small HTML document that works without JavaScript: the overall
 * state, the open updates, each check's state in words (and the state of an open update naming
 * it) and a 90-day bar, maintenance under way and scheduled, the recent incidents, the past
 * updates of 90 days, and a form to subscribe by e-mail (none when `links.subscribe` is absent:
 * the server sends no mail).
 */
export function renderStatusPage(status: PublicStatus, links: StatusPageLinks): string {
  const cell = dayCells();
  const open = status.updates.filter((update) => update.resolvedAt === null);
  const past = status.updates.filter((update) => update.resolvedAt !== null);
  const incidents = status.incidents.length
    ? markup`<ol class="incidents">${status.incidents.map(
        (incident) =>
          markup`<li><strong>${incident.title}</strong> <span class="muted">(${incident.status})</span><br><span class="muted">Opened ${when(incident.openedAt)}${incident.resolvedAt ? markup`, resolved ${when(incident.resolvedAt)}` : ''}</span></li>`,
      )}</ol>`
    : markup`<p class="muted">No incidents in the last 14 days.</p>`;
  return markup`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<link rel="icon" href="data:,">
<title>${status.title}: ${STATE_WORDS[status.state]}</title>
<link rel="alternate" type="application/atom+xml" title="Incidents and updates" href="${links.feed}">
<style>${raw(STATUS_PAGE_CSS)}</style>
</head>
<body>
<main>
<header>
<h1>${status.title}</h1>
${status.description ? markup`<p class="description">${status.description}</p>` : ''}
<p class="overall ${stateClass(status.state)}" role="status">${STATE_WORDS[status.state]}</p>
</header>
${
  open.length
    ? markup`<section aria-labelledby="open-updates-title">
<h2 id="open-updates-title">Current updates</h2>
<ol class="updates">${open.map(updateItem)}</ol>
</section>`
    : ''
}
<section aria-labelledby="checks-title">
<h2 id="checks-title">Services</h2>
${status.checks.length ? markup`<ul class="checks">${status.checks.map((check) => checkItem(check, cell))}</ul>` : markup`<p class="muted">No services are listed on this page.</p>`}
</section>
${maintenanceSection(status.maintenance, when)}<section aria-labelledby="incidents-title">
<h2 id="incidents-title">Incidents</h2>
${incidents}
</section>
${
  past.length
    ? markup`<section aria-labelledby="past-updates-title">
<h2 id="past-updates-title">Past updates</h2>
<ol class="updates">${past.map(updateItem)}</ol>
</section>`
    : ''
}
${
  links.subscribe === undefined
    ? ''
    : markup`<section aria-labelledby="subscribe-title">
<h2 id="subscribe-title">Get updates by e-mail</h2>
<form class="subscribe" method="post" action="${links.subscribe}"><label for="subscribe-email">E-mail address</label> <input id="subscribe-email" name="email" type="email" required maxlength="254" autocomplete="email"> <button type="submit">Subscribe</button></form>
</section>
`
}<footer>Updated ${when(status.updatedAt)} · <a href="${links.feed}">Feed of incidents and updates (Atom)</a></footer>
</main>
</body>
</html>
`.toString();
}

/** The answer to a page that does not exist or is not public (the same for both). */
export function renderNotFoundPage(): string {
  return markup`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark"><link rel="icon" href="data:,"><title>Status page not found</title><style>${raw(STATUS_PAGE_CSS)}</style></head>
<body><main><h1>Status page not found</h1><p class="muted">There is no public status page at this address.</p></main></body>
</html>
`.toString();
}
