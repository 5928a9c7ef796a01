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
  /** `?order=`: creation order (the default), what needs attention first, or by slug. */
  order: CheckListOrder;
  /** The cursor of an `attention` or `name` page: where the previous page stopped. */
  after?: CheckListPosition;
}

/** The orders of the check list: `created` (uid), `attention` (down, degraded, pending, up, paused; then slug), `name` (slug). */
export const CHECK_LIST_ORDERS = ['created', 'attention', 'name'] as const;
export type CheckListOrder = (typeof CHECK_LIST_ORDERS)[number];

/** Where a page in `attention` or `name` order stopped: the last check's state rank and slug. */
export interface CheckListPosition {
  rank: number;
  slug: string;
}

/** The cursor of a page in `attention` or `name` order: the position, base64url-encoded. */
export function encodePosition(position: CheckListPosition): string {
  return Buffer.from(JSON.stringify([position.rank, position.slug])).toString('base64url');
}

function decodePosition(cursor: string): CheckListPosition | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && Number.isInteger(value[0]) && typeof value[1] === 'string') return { rank: value[0], slug: value[1] };
  } catch {
    // Not JSON: reported below as a cursor this API did not return.
  }
  return undefined;
}

const KNOWN = ['label', 'type', 'state', 'limit', 'cursor', 'include', 'order'];

/** What `?include=` may add to each listed check. */
export const CHECK_LIST_INCLUDES = ['uptime24h', 'latencies'] as const;

/** At most this many `?label=` filters in one list (more answer 400): each costs the database work. */
export const MAX_LABEL_FILTERS = 20;

/** Page sizes of the check list: 50 by default, at most 500. */
export const CHECK_PAGE = { defaultLimit: 50, maxLimit: 500 } as const;

/**
 * Reads `?label=key=value` (repeatable; every one must match), `?type=`, `?state=`, `?order=`,
 * `?limit=` and `?cursor=`. An unknown parameter is refused rather than ignored, so a misspelt filter never
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
  const includes = query
    .getAll('include')
    .flatMap((value) => value.split(','))
    .filter(Boolean);
  for (const include of includes) {
    if (!(CHECK_LIST_INCLUDES as readonly string[]).includes(include))
      issues.push({ path: 'include', message: `must be one of ${CHECK_LIST_INCLUDES.join(', ')}` });
  }
  const order = (query.get('order') ?? 'created') as CheckListOrder;
  if (!CHECK_LIST_ORDERS.includes(order)) issues.push({ path: 'order', message: `must be one of ${CHECK_LIST_ORDERS.join(', ')}` });
  // A page in attention or name order continues after a position, not after a uid.
  let after: CheckListPosition | undefined;
  const pageQuery = new URLSearchParams(query);
  if (order !== 'created' && query.get('cursor')) {
    after = decodePosition(query.get('cursor') as string);
    if (!after) issues.push({ path: 'cursor', message: 'is not a cursor this API returned' });
    pageQuery.delete('cursor');
  }
  let page: PageRequest = { limit: CHECK_PAGE.defaultLimit };
  try {
    page = parsePage(pageQuery, CHECK_PAGE);
  } catch (error) {
    const details = (error as { details?: { issues?: ValidationIssue[] } }).details;
    if (!details?.issues) throw error;
    issues.push(...details.issues);
  }
  if (issues.length > 0) throw validationFailed(issues, 'The query is not valid.');
  return {
    labels,
    type,
    state: state as CheckState | undefined,
    includeUptime24h: includes.includes('uptime24h'),
    includeLatencies: includes.includes('latencies'),
    limit: page.limit,
    cursor: page.cursor,
    order,
    after,
  };
}
