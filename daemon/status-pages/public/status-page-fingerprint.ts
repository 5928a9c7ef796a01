// The ETag of a public status page, made from what the page shows instead of from its HTML, so
// that a revalidation, and a compressed page already in the cache, is answered without rendering
// the page (cacheable.ts, sendRendered). Rendering a 50-check page and hashing its 250 KiB of
// HTML cost more than the reads that gather what it shows.
import { VERSION } from '../../version.js';
import { fingerprintOf } from './cacheable.js';
import type { PublicStatus } from './public-status.js';
import { renderStatusPage, type StatusPageLinks } from './render-status-page.js';

const DAY = (date: string, uptimePercent: number | null) => ({ date, uptimePercent });

/**
 * A page with every part the renderer writes: its HTML stands for the renderer's templates, so
 * that a daemon whose templates differ (another build of the same version) tags every page
 * differently, and a browser holding a page of the old templates is sent the new one.
 */
export const RENDERER_SAMPLE: PublicStatus = {
  title: 'Sample <status>',
  description: 'A "description" & more',
  state: 'partial outage',
  checks: [
    { name: 'Up', state: 'up', updateState: 'monitoring', uptime90d: 99.95, days: [DAY('2026-01-01', 100), DAY('2026-01-02', 99.5), DAY('2026-01-03', null)] },
    { name: 'Down', state: 'down', updateState: null, uptime90d: null, days: [DAY('2026-01-01', 10)] },
    { name: 'Paused', state: 'paused', updateState: 'identified', uptime90d: 0, days: [] },
  ],
  incidents: [
    { uid: 'open', title: 'Down is down', status: 'open', openedAt: '2026-01-03T10:00:00.000Z', resolvedAt: null },
    { uid: 'resolved', title: 'Up was down', status: 'resolved', openedAt: '2026-01-02T10:00:00.000Z', resolvedAt: '2026-01-02T11:00:00.000Z' },
  ],
  updates: [
    {
      uid: 'open',
      title: 'Looking into it',
      body: '**Bold** and [a link](https://status.example.com)',
      bodyHtml: '',
      state: 'investigating',
      checks: ['Down'],
      createdAt: '2026-01-03T10:00:00.000Z',
      updatedAt: '2026-01-03T10:30:00.000Z',
      resolvedAt: null,
    },
    {
      uid: 'past',
      title: 'Fixed',
      body: 'Done.',
      bodyHtml: '',
      state: 'resolved',
      checks: [],
      createdAt: '2026-01-02T10:00:00.000Z',
      updatedAt: '2026-01-02T11:00:00.000Z',
      resolvedAt: '2026-01-02T11:00:00.000Z',
    },
  ],
  maintenance: [
    {
      uid: 'now',
      title: 'Upgrade',
      description: 'Short',
      startsAt: '2026-01-03T09:00:00.000Z',
      endsAt: '2026-01-03T12:00:00.000Z',
      active: true,
      checks: ['Up'],
      updatedAt: '2026-01-01T00:00:00.000Z',
    },
    {
      uid: 'next',
      title: 'Move',
      description: null,
      startsAt: '2026-01-10T09:00:00.000Z',
      endsAt: '2026-01-10T10:00:00.000Z',
      active: false,
      checks: [],
      updatedAt: '2026-01-01T00:00:00.000Z',
    },
  ],
  updatedAt: '2026-01-03T10:30:00.000Z',
};

let renderer: string | undefined;

/** This daemon's renderer: its version and the fingerprint of its HTML for RENDERER_SAMPLE, worked out once. */
const rendererId = () => (renderer ??= `${VERSION} ${fingerprintOf(renderStatusPage(RENDERER_SAMPLE, { feed: '/feed.atom', subscribe: '/subscribe' }))}`);

/**
 * The fingerprint of the page `renderStatusPage(status, links)` would write: of the renderer and
 * of everything it is given (its only inputs), so two daemons of the same build give a page the
 * same tag, and a page whose data changed gets a new one.
 */
export function statusPageFingerprint(status: PublicStatus, links: StatusPageLinks): string {
  return fingerprintOf(rendererId(), JSON.stringify(links), JSON.stringify(status));
}
