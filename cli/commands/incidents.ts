import { INCIDENT_STATUSES, type Incident, type Page } from '../../contract/index.js';
import type { CommandDeps } from '../context.js';
import { usageError } from '../errors.js';
import { orgPath, resolveOrg } from './checks-org.js';

type IncidentPage = Page<Incident>;

/** What `--status` accepts: the API's statuses, `active` (open or acknowledged) and `all`. */
const STATUS_CHOICES = ['active', 'open', 'acknowledged', 'resolved', 'all'];

/** `svc incidents list [--status S] [--check SLUG]`: every matching incident, newest first. */
export async function list(options: { status: string; check?: string }, deps: CommandDeps): Promise<void> {
  if (!STATUS_CHOICES.includes(options.status)) throw usageError(`--status takes ${STATUS_CHOICES.join(', ')}; got "${options.status}"`);
  const org = await resolveOrg({}, deps);
  const client = deps.client();
  // The API filters by one status; "active" and "all" read everything and keep what they mean.
  const apiStatus = (INCIDENT_STATUSES as readonly string[]).includes(options.status) ? options.status : undefined;
  const incidents: Incident[] = [];
  let cursor: string | null = null;
  do {
    const page: IncidentPage = await client.get<IncidentPage>(`${orgPath(org)}/incidents`, {
      query: { status: apiStatus, limit: '200', cursor: cursor ?? undefined },
    });
    incidents.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  const shown = incidents.filter(
    (incident) => (options.status !== 'active' || incident.status !== 'resolved') && (!options.check || incident.checkSlug === options.check),
  );

  if (deps.out.jsonMode) return deps.out.json(shown);
  if (shown.length === 0) return deps.out.info(`no ${options.status === 'all' ? '' : `${options.status} `}incidents in ${org}`);
  deps.out.table(
    shown.map((incident) => ({ ...incident, check: incident.checkSlug ?? '', by: (incident.resolvedBy ?? incident.acknowledgedBy)?.email ?? '' })),
    [
      { key: 'uid', title: 'UID' },
      { key: 'status', title: 'STATUS' },
      { key: 'check', title: 'CHECK' },
      { key: 'title', title: 'TITLE' },
      { key: 'createdAt', title: 'OPENED' },
      { key: 'by', title: 'BY' },
    ],
  );
}

/** Moves an incident on (acknowledge or resolve) and reports where it stands. */
async function advance(uid: string, step: 'acknowledge' | 'resolve', deps: CommandDeps): Promise<void> {
  const org = await resolveOrg({}, deps);
  const incident = await deps.client().post<Incident>(`${orgPath(org)}/incidents/${encodeURIComponent(uid)}/${step}`);
  if (deps.out.jsonMode) return deps.out.json(incident);
  deps.out.success(`incident ${incident.uid} (${incident.title}) is ${incident.status}`);
}

/** `svc incidents ack UID`. */
export const acknowledge = (options: { args: string[] }, deps: CommandDeps) => advance(options.args[0], 'acknowledge', deps);

/** `svc incidents resolve UID`. */
export const resolve = (options: { args: string[] }, deps: CommandDeps) => advance(options.args[0], 'resolve', deps);
