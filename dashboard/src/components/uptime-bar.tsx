import type { Uptime } from '../api/types';
import { formatUptime } from '../lib/uptime-format';

const DAY_MS = 86_400_000;

/** The class of a day's cell: its worst band, so a colour always pairs with the title's words. */
function band(percent: number | null | undefined): string {
  if (percent === null || percent === undefined) return 'none';
  if (percent >= 99.9) return 'good';
  if (percent >= 95) return 'fair';
  return 'bad';
}

/** Ninety days of uptime, one cell per day (oldest left), each titled with its date and figure. */
export function UptimeBar({ uptime, nowMs = Date.now() }: { uptime: Uptime; nowMs?: number }) {
  const byDay = new Map((uptime.buckets ?? []).map((bucket) => [bucket.start.slice(0, 10), bucket]));
  const today = Math.floor(nowMs / DAY_MS);
  const days = Array.from({ length: 90 }, (_, at) => new Date((today - 89 + at) * DAY_MS).toISOString().slice(0, 10));
  return (
    <figure class="uptime-bar-figure">
      {/* biome-ignore lint/a11y/useSemanticElements: a bar of 90 cells laid out by CSS; the list role gives screen readers the days */}
      <div class="uptime-bar" role="list" aria-label="Uptime per day over 90 days">
        {days.map((day) => {
          const bucket = byDay.get(day);
          const words = `${day}: ${bucket ? formatUptime(bucket.uptimePercent) : 'no runs'}`;
          // biome-ignore lint/a11y/useSemanticElements: one cell of the bar above
          return <span key={day} role="listitem" class={`day day-${band(bucket?.uptimePercent)}`} title={words} aria-label={words} />;
        })}
      </div>
      <figcaption class="bar-legend">
        <span>90 days ago</span>
        <span class="bar-key">
          <span class="key">
            <span class="day day-good" aria-hidden="true" /> 99.90 % or more
          </span>
          <span class="key">
            <span class="day day-fair" aria-hidden="true" /> 95.00 % or more
          </span>
          <span class="key">
            <span class="day day-bad" aria-hidden="true" /> below 95.00 %
          </span>
          <span class="key">
            <span class="day day-none" aria-hidden="true" /> no runs
          </span>
        </span>
        <span>Today</span>
      </figcaption>
    </figure>
  );
}
