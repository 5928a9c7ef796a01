import type { MaintenanceWindow } from '../api/types';
import { formatDate } from '../lib/format';

/** What a window covers, in words. */
export function coverageOf(window: MaintenanceWindow): string {
  if (window.allChecks) return 'all checks';
  const labels = Object.entries(window.labels).map(([key, value]) => `${key}=${value}`);
  return [...window.checks, ...labels.map((label) => `label ${label}`)].join(', ') || 'nothing';
}

/** When a window happens: under way until, or next from and to; "over" when none is left. */
export function WindowTime({ window }: { window: MaintenanceWindow }) {
  const occurrence = window.occurrence;
  if (!occurrence) return <span class="hint">over</span>;
  return window.active ? (
    <span>
      <strong>in progress</strong> until {formatDate(occurrence.endsAt)}
    </span>
  ) : (
    <span>
      {formatDate(occurrence.startsAt)} to {formatDate(occurrence.endsAt)}
    </span>
  );
}

/** Maintenance windows under way and coming, as a short list (the check page and the overview). */
export function MaintenanceList({ windows, empty }: { windows: MaintenanceWindow[]; empty: string }) {
  if (windows.length === 0) return <p>{empty}</p>;
  return (
    <ul class="plain-list" aria-label="Maintenance windows">
      {windows.map((window) => (
        <li key={window.uid} data-maintenance={window.title}>
          <strong>{window.title}</strong> {window.active ? <span class="state state-maintenance">under way</span> : null} <WindowTime window={window} />
          {window.recurrence ? (
            <span class="hint">
              {' '}
              · repeats {window.recurrence} ({window.timezone})
            </span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
