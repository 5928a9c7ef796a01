import { ImportInputError, inputText, isRecord, parseJsonText } from '../converter.js';

/** Where the hosted monitoring API answers unless configured otherwise (`SVC_IMPORT_HOSTED_MONITOR_API_URL`). */
export const DEFAULT_HOSTED_MONITOR_API_URL = 'https://uptime.betterstack.com';

/**
 * What the adapter fetched and the converter reads: the `data` entries of every page of each
 * list, as the API sent them (JSON:API resources: `{id, type, attributes}`). Plain data, so
 * that it can be saved, replayed and converted without the network.
 */
export interface HostedMonitorData {
  /** `/api/v2/monitors` */
  readonly monitors: readonly unknown[];
  /** `/api/v2/heartbeats` */
  readonly heartbeats: readonly unknown[];
  /** `/api/v2/monitor-groups`, for the names of the groups monitors belong to. */
  readonly monitorGroups?: readonly unknown[];
  /** `/api/v2/heartbeat-groups`, for the names of the groups heartbeats belong to. */
  readonly heartbeatGroups?: readonly unknown[];
}

/** One resource of a list, read leniently: anything that is not an object has no attributes. */
export interface Resource {
  readonly id: string | undefined;
  readonly attributes: Record<string, unknown> | undefined;
}

/** The lists the converter walks, each resource in the API's order. */
export interface HostedLists {
  readonly monitors: readonly Resource[];
  readonly heartbeats: readonly Resource[];
  /** Group id to group name, monitor groups and heartbeat groups apart. */
  readonly monitorGroups: ReadonlyMap<string, string>;
  readonly heartbeatGroups: ReadonlyMap<string, string>;
}

const EXPECTED =
  'the monitors and heartbeats of the hosted monitoring API: its listings saved as JSON (one page {"data": [...]}, ' +
  'a list of pages, or {"monitors": [...], "heartbeats": [...]})';

/** The list a resource of a saved listing page belongs to, by its JSON:API `type`. */
const LIST_OF_TYPE: Record<string, 'monitors' | 'heartbeats' | 'monitorGroups' | 'heartbeatGroups'> = {
  monitor: 'monitors',
  heartbeat: 'heartbeats',
  monitor_group: 'monitorGroups',
  heartbeat_group: 'heartbeatGroups',
};

/**
 * Saved listing pages (`{data: [...], pagination}` as the API answers each list) sorted into
 * the lists by each resource's `type`; a resource without a known type counts as a monitor.
 */
function fromPages(pages: readonly unknown[]): Record<string, unknown[]> {
  const lists: Record<string, unknown[]> = { monitors: [], heartbeats: [], monitorGroups: [], heartbeatGroups: [] };
  for (const page of pages) {
    if (!isRecord(page) || !Array.isArray(page.data)) throw new ImportInputError(`expected ${EXPECTED}, but a page has no "data" list`);
    for (const item of page.data) {
      const type = isRecord(item) && typeof item.type === 'string' ? item.type : 'monitor';
      lists[LIST_OF_TYPE[type] ?? 'monitors'].push(item);
    }
  }
  return lists;
}

function resource(value: unknown): Resource {
  if (!isRecord(value)) return { id: undefined, attributes: undefined };
  const id = typeof value.id === 'string' || typeof value.id === 'number' ? String(value.id) : undefined;
  return { id, attributes: isRecord(value.attributes) ? value.attributes : undefined };
}

// A list is either the resources themselves or a page envelope ({data: [...], pagination}).
function list(value: unknown, name: string): readonly unknown[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value;
  if (isRecord(value) && Array.isArray(value.data)) return value.data;
  throw new ImportInputError(`expected ${EXPECTED}, but "${name}" is not a list`);
}

function groupNames(value: unknown, name: string): Map<string, string> {
  const names = new Map<string, string>();
  for (const group of list(value, name).map(resource)) {
    const groupName = group.attributes?.name;
    if (group.id !== undefined && typeof groupName === 'string' && groupName.trim() !== '') names.set(group.id, groupName.trim());
  }
  return names;
}

/**
 * The lists of the plain data, or of its JSON text (a saved copy). Throws ImportInputError
 * when the value is not such data at all; a bad resource is left for the converter to report.
 */
export function hostedLists(input: HostedMonitorData | Uint8Array | string): HostedLists {
  const value: unknown = typeof input === 'string' || input instanceof Uint8Array ? parseJsonText(inputText(input, EXPECTED), EXPECTED) : input;
  if (Array.isArray(value)) return listsOf(fromPages(value));
  if (!isRecord(value)) throw new ImportInputError(`expected ${EXPECTED}`);
  const hasLists = 'monitors' in value || 'heartbeats' in value;
  // A single page of a listing, as the API answers /api/v2/monitors or /api/v2/heartbeats.
  if (!hasLists && Array.isArray(value.data)) return listsOf(fromPages([value]));
  if (!hasLists) throw new ImportInputError(`expected ${EXPECTED}, but neither list is there`);
  return listsOf(value);
}

function listsOf(data: Record<string, unknown>): HostedLists {
  return {
    monitors: list(data.monitors, 'monitors').map(resource),
    heartbeats: list(data.heartbeats, 'heartbeats').map(resource),
    monitorGroups: groupNames(data.monitorGroups, 'monitorGroups'),
    heartbeatGroups: groupNames(data.heartbeatGroups, 'heartbeatGroups'),
  };
}
