import type { List, MaintenanceWindow } from '../../contract/index.js';
import type { CommandDeps } from '../context.js';
import { orgPath, resolveOrg } from './checks-org.js';

/** What a window covers, in a few words. */
export function coverage(window: MaintenanceWindow): string {
  if (window.allChecks) return 'all checks';
  const labels = Object.entries(window.labels).map(([key, value]) => `${key}=${value}`);
  return [...window.checks, ...labels].join(', ') || '(nothing)';
}

/** When a window happens next, in a few words. */
export function nextTime(window: MaintenanceWindow): string {
  if (!window.occurrence) return 'over';
  return `${window.active ? 'now, until' : window.occurrence.startsAt + ' to'} ${window.occurrence.endsAt}`;
}

/** `svc maintenance list [--check SLUG] [--upcoming]`: the organization's maintenance windows. */
export async function list(options: { org?: string; check?: string; upcoming?: boolean }, deps: CommandDeps): Promise<void> {
  const org = await resolveOrg(options, deps);
  const { items } = await deps.client().get<List<MaintenanceWindow>>(`${orgPath(org)}/maintenance-windows`, {
    query: { check: options.check, upcoming: options.upcoming ? 'true' : undefined },
  });
  if (deps.out.jsonMode) return deps.out.json(items);
  if (items.length === 0) return deps.out.info(`no maintenance windows in ${org} (create one with svc maintenance create)`);
  deps.out.table(
    items.map((window) => ({
      ...window,
      repeats: window.recurrence ? `${window.recurrence} (${window.timezone})` : 'once',
      covers: coverage(window),
      next: nextTime(window),
    })),
    [
      { key: 'uid', title: 'UID' },
      { key: 'title', title: 'TITLE' },
      { key: 'next', title: 'NEXT' },
      { key: 'repeats', title: 'REPEATS' },
      { key: 'covers', title: 'COVERS' },
    ],
  );
}
