import { describe, expect, it } from 'vitest';
import type { PublicStatus } from '../../daemon/status-pages/public/public-status.js';
import { renderStatusPage } from '../../daemon/status-pages/public/render-status-page.js';
import { RENDERER_SAMPLE, statusPageFingerprint } from '../../daemon/status-pages/public/status-page-fingerprint.js';

const LINKS = { feed: '/status/org/page/feed.atom', subscribe: '/status/org/page/subscribe' };
const copy = (status: PublicStatus): PublicStatus => structuredClone(status);

describe('the fingerprint of a public status page', () => {
  it('is the same for the same page, and differs when anything the page shows differs', () => {
    const tag = statusPageFingerprint(RENDERER_SAMPLE, LINKS);
    expect(statusPageFingerprint(copy(RENDERER_SAMPLE), { ...LINKS })).toBe(tag);
    const changes: Array<(status: PublicStatus) => void> = [
      (s) => (s.title = 'Other'),
      (s) => (s.checks[0].days[1].uptimePercent = 99.4),
      (s) => (s.checks[1].state = 'up'),
      (s) => (s.incidents[0].resolvedAt = '2026-01-03T11:00:00.000Z'),
      (s) => (s.updates[0].body = 'Changed'),
      (s) => (s.maintenance[1].endsAt = '2026-01-10T11:00:00.000Z'),
      (s) => (s.updatedAt = '2026-01-04T00:00:00.000Z'),
    ];
    for (const change of changes) {
      const changed = copy(RENDERER_SAMPLE);
      change(changed);
      expect(renderStatusPage(changed, LINKS), String(change)).not.toBe(renderStatusPage(RENDERER_SAMPLE, LINKS));
      expect(statusPageFingerprint(changed, LINKS), String(change)).not.toBe(tag);
    }
    expect(statusPageFingerprint(RENDERER_SAMPLE, { feed: LINKS.feed })).not.toBe(tag);
  });

  it('stands for the renderer by a sample that has every part of a page', () => {
    const html = renderStatusPage(RENDERER_SAMPLE, LINKS);
    for (const part of ['open-updates-title', 'checks-title', 'maintenance-title', 'incidents-title', 'past-updates-title', 'subscribe-title']) {
      expect(html, part).toContain(`id="${part}"`);
    }
    for (const words of ['Operational', 'Down', 'Paused', 'No day of the last 90', 'Days below 99.90 %', 'no data', 'Affects: Down', 'resolved']) {
      expect(html, words).toContain(words);
    }
  });
});
