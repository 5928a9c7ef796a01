import { markup, raw, type Markup } from '../../markup.js';
import type { PublicCheck, PublicStatus } from './public-status.js';
import { maintenanceSection } from './render-maintenance.js';
import { STATUS_PAGE_CSS } from './status-page-style.js';

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

/** The bar in words: the days below full uptime, or that there were none. */
function barSummary(check: PublicCheck): string {
  const bad = check.days.filter((day) => day.uptimePercent !== null && day.uptimePercent < 99.9);
  if (bad.length === 0) return 'No day of the last 90 below 99.90 % uptime.';
  return `Days below 99.90 % uptime: ${bad.map((day) => `${day.date} (${percent(day.uptimePercent as number)})`).join(', ')}.`;
}

function checkItem(check: PublicCheck): Markup {
  const uptime = check.uptime90d === null ? 'no data' : `${percent(check.uptime90d)} uptime`;
  return markup`<li>
<div class="check-head"><span class="name">${check.name}</span><span class="state ${check.state}">${STATE_WORDS[check.state]}</span></div>
<ol class="bar" aria-hidden="true">${check.days.map(dayCell)}</ol>
<p class="visually-hidden">${barSummary(check)}</p>
<div class="bar-legend"><span>90 days ago</span><span>${uptime}</span><span>Today</span></div>
</li>`;
}

const when = (iso: string) => markup`<time datetime="${iso}">${DATE_FORMAT.format(new Date(iso))}</time>`;

/**
 * The public status page as one small HTML document that works without JavaScript: the overall
 * state, each check's state in words and a 90-day bar, maintenance under way and scheduled, and the
 * recent incidents.
 */
export function renderStatusPage(status: PublicStatus, links: { feed: string }): string {
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
<link rel="alternate" type="application/atom+xml" title="Incidents" href="${links.feed}">
<style>${raw(STATUS_PAGE_CSS)}</style>
</head>
<body>
<main>
<header>
<h1>${status.title}</h1>
${status.description ? markup`<p class="description">${status.description}</p>` : ''}
<p class="overall ${stateClass(status.state)}" role="status">${STATE_WORDS[status.state]}</p>
</header>
<section aria-labelledby="checks-title">
<h2 id="checks-title">Services</h2>
${status.checks.length ? markup`<ul class="checks">${status.checks.map(checkItem)}</ul>` : markup`<p class="muted">No services are listed on this page.</p>`}
</section>
${maintenanceSection(status.maintenance, when)}<section aria-labelledby="incidents-title">
<h2 id="incidents-title">Incidents</h2>
${incidents}
</section>
<footer>Updated ${when(status.updatedAt)} · <a href="${links.feed}">Incident feed (Atom)</a></footer>
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
