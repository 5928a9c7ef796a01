import type { MaintenanceWindow } from '../../contract/index.js';
import type { CommandDeps } from '../context.js';
import { usageError } from '../errors.js';
import { orgPath, resolveOrg } from './checks-org.js';
import { coverage, nextTime } from './maintenance-list.js';

interface CreateOptions {
  org?: string;
  title: string;
  start: string;
  end?: string;
  duration?: string;
  recurrence?: string;
  timezone?: string;
  check?: string[];
  label?: string[];
  allChecks?: boolean;
  description?: string;
}

/** `90m`, `2h`, `1h30m` or `1d` in milliseconds. */
function durationMs(text: string): number {
  const match = /^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?$/.exec(text.trim());
  if (!match || text.trim() === '') throw usageError(`--duration is like 90m, 2h, 1h30m or 1d; got "${text}"`);
  const [, days, hours, minutes] = match.map((part) => Number(part ?? 0));
  return ((days * 24 + hours) * 60 + minutes) * 60_000;
}

/** `key=value` pairs as a map. */
function labelMap(pairs: string[]): Record<string, string> {
  return Object.fromEntries(
    pairs.map((pair) => {
      const at = pair.indexOf('=');
      if (at < 1) throw usageError(`--label is key=value; got "${pair}"`);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
}

/** `svc maintenance create --title T --start TIME (--end TIME | --duration 2h) [--recurrence RRULE --timezone TZ] [--check SLUG]... [--label k=v]... [--all-checks]`. */
export async function create(options: CreateOptions, deps: CommandDeps): Promise<void> {
  if ((options.end === undefined) === (options.duration === undefined)) throw usageError('give the end: either --end TIME or --duration (e.g. 2h)');
  const start = Date.parse(options.start);
  if (!Number.isFinite(start) || !/(Z|[+-]\d\d:?\d\d)$/i.test(options.start.trim()))
    throw usageError(`--start is an ISO-8601 time with its zone (2026-03-29T02:00:00+02:00 or ...Z); got "${options.start}"`);
  const endsAt = options.end ?? new Date(start + durationMs(options.duration!)).toISOString();
  if (!options.allChecks && !options.check?.length && !options.label?.length)
    throw usageError('say what it covers: --check SLUG, --label key=value or --all-checks');
  const org = await resolveOrg(options, deps);
  const window = await deps.client().post<MaintenanceWindow>(`${orgPath(org)}/maintenance-windows`, {
    title: options.title,
    ...(options.description ? { description: options.description } : {}),
    startsAt: options.start,
    endsAt,
    ...(options.recurrence ? { recurrence: options.recurrence } : {}),
    ...(options.timezone ? { timezone: options.timezone } : {}),
    ...(options.allChecks ? { allChecks: true } : {}),
    checks: options.check ?? [],
    labels: labelMap(options.label ?? []),
  });
  if (deps.out.jsonMode) return deps.out.json(window);
  deps.out.success(`created maintenance window ${window.uid} in ${org}`);
  deps.out.line(`covers     ${coverage(window)}`);
  deps.out.line(`next       ${nextTime(window)}`);
  if (window.recurrence) deps.out.line(`repeats    ${window.recurrence} in ${window.timezone}`);
}
