import { checkTypeNames, isCheckTypeName } from '../../checks/index.js';
import { validationFailed, type ValidationIssue } from '../errors.js';
import { parsePage, unknownQueryParameters, type PageRequest } from '../http/pagination.js';
import { CHECK_STATES, type CheckState } from '../runner/state-machine.js';
import type { LabelFilter } from './check-store.js';

/** The query of `GET /orgs/{org}/checks`, validated. */
export interface CheckListQuery extends PageRequest {
  labels: LabelFilter[];
  type?: string;
  state?: CheckState;
  /** `?include=uptime24h`: each check also carries `uptime24h` (percent or null), summed in one query. */
  includeUptime24h?: boolean;
  /** `?include=latencies`: each check also carries `recentLatencies`, its last runs' response times. */
  includeLatencies?: boolean;
}

const KNOWN = ['label', 'type', 'state', 'limit', 'cursor', 'include'];

/** What `?include=` may add to each listed check. */
export const CHECK_LIST_INCLUDES = ['uptime24h', 'latencies'] as const;

/** At most this many `?label=` filters in one list (more answer 400): each costs the database work. */
export const MAX_LABEL_FILTERS = 20;

/** Page sizes of the check list: 50 by default, at most 500. */
export const CHECK_PAGE = { defaultLimit: 50, maxLimit: 500 } as const;

/**
 * Reads `?label=key=value` (repeatable; every one must match), `?type=`, `?state=`, `?limit=` and
 * `?cursor=`. An unknown parameter is refused rather than ignored, so a misspelt filter never
 * silently lists everything.
 */
export function parseCheckListQuery(query: URLSearchParams): CheckListQuery {
  const issues = unknownQueryParameters(query, KNOWN);
  const labels: LabelFilter[] = [];
  const filters = query.getAll('label');
  if (filters.length > MAX_LABEL_FILTERS) {
    throw validationFailed([{ path: 'label', message: `at most ${MAX_LABEL_FILTERS} label filters; ${filters.length} were given` }], 'The query is not valid.');
  }
  for (const filter of filters) {
    const at = filter.indexOf('=');
    if (at <= 0) issues.push({ path: 'label', message: `"${filter}" is not of the form key=value` });
    else labels.push({ key: filter.slice(0, at), value: filter.slice(at + 1) });
  }
  const type = query.get('type') ?? undefined;
  if (type !== undefined && !isCheckTypeName(type)) {
    issues.push({ path: 'type', message: `unknown check type "${type}"; known types: ${checkTypeNames.join(', ')}` });
  }
  const state = query.get('state') ?? undefined;
  if (state !== undefined && !CHECK_STATES.includes(state as CheckState)) {
    issues.push({ path: 'state', message: `must be one of ${CHECK_STATES.join(', ')}` });
  }
  const includes = query.getAll('include').flatMap((value) => value.split(',')).filter(Boolean);
  for (const include of includes) {
    if (!(CHECK_LIST_INCLUDES as readonly string[]).includes(include)) issues.push({ path: 'include', message: `must be one of ${CHECK_LIST_INCLUDES.join(', ')}` });
  }
  let page: PageRequest = { limit: CHECK_PAGE.defaultLimit };
  try {
    page = parsePage(query, CHECK_PAGE);
  } catch (error) {
    const details = (error as { details?: { issues?: ValidationIssue[] } }).details;
    if (!details?.issues) throw error;
    issues.push(...details.issues);
  }
  if (issues.length > 0) throw validationFailed(issues, 'The query is not valid.');
  return { labels, type, state: state as CheckState | undefined, includeUptime24h: includes.includes('uptime24h'), includeLatencies: includes.includes('latencies'), limit: page.limit, cursor: page.cursor };
}
