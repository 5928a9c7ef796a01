import { ConversionBuilder, importDescription, importLabels, type ConversionResult, type ConvertOptions, type ItemScope } from '../converter.js';
import { dropExpiryReminders } from './map-http.js';
import { convertMaintenance } from './map-maintenance.js';
import { isSkip, own, unsupported, wholeNumber } from './mapping.js';
import { flag, num, text, type MonitorExport, type MonitorRecord } from './monitor-record.js';
import { GROUP_TYPE, TYPE_MAPPERS, UNSUPPORTED_TYPES } from './type-mappers.js';

const SOURCE = 'selfhosted-monitor-db';
const MAX_GROUP_DEPTH = 32;
const PROGRESS_EVERY = 500;

/** Where a monitor sits: its groups from the outermost in, and whether they all run. */
interface Placement {
  /** The `group` label: the group names joined by " / "; undefined outside any group. */
  readonly group: string | undefined;
  /** False when a group around the monitor is paused: the tool then runs none of its monitors. */
  readonly groupsActive: boolean;
}

function placements(monitors: readonly MonitorRecord[]): (monitor: MonitorRecord) => Placement {
  const groups = new Map<number, MonitorRecord>();
  for (const monitor of monitors) {
    const id = num(monitor, 'id');
    if (id !== undefined && text(monitor, 'type') === GROUP_TYPE) groups.set(id, monitor);
  }
  return (monitor) => {
    const names: string[] = [];
    const seen = new Set<number>();
    let groupsActive = true;
    let parent = num(monitor, 'parent');
    while (parent !== undefined && !seen.has(parent) && names.length < MAX_GROUP_DEPTH) {
      seen.add(parent);
      const group = groups.get(parent);
      if (group === undefined) break;
      names.unshift(text(group, 'name')?.trim() ?? `group #${parent}`);
      if (flag(group, 'active') === false) groupsActive = false;
      parent = num(group, 'parent');
    }
    return { group: names.length === 0 ? undefined : names.join(' / '), groupsActive };
  };
}

function labelsOf(monitor: MonitorRecord, scope: ItemScope, group: string | undefined, tagsField: string): Record<string, string> {
  const values = new Map<string, string[]>();
  for (const tag of monitor.tags) {
    const list = values.get(tag.name) ?? [];
    if (!list.includes(tag.value)) list.push(tag.value);
    values.set(tag.name, list);
  }
  const entries: [string, string][] = [];
  for (const [name, list] of values) {
    const joined = list.filter((value) => value !== '').join(', ');
    if (list.length > 1) {
      const message = `the tag ${JSON.stringify(name)} is set ${list.length} times; its values were joined`;
      scope.warn('VALUE_ADJUSTED', message, tagsField);
    }
    if (name === 'group' && group !== undefined) {
      scope.warn('VALUE_ADJUSTED', 'the tag "group" was replaced by the label naming the monitor\'s group', tagsField);
      continue;
    }
    entries.push([name, joined]);
  }
  if (group !== undefined) entries.push(['group', group]);
  return importLabels(entries, scope, tagsField);
}

function thresholdsOf(monitor: MonitorRecord, scope: ItemScope, intervalSeconds: number | undefined, push: boolean) {
  const retries = wholeNumber(monitor, scope, 'maxretries', 'retry count', [0, 99]);
  const retryInterval = num(monitor, 'retry_interval');
  const retriedOtherwise = retryInterval !== undefined && retryInterval > 0 && retryInterval !== intervalSeconds;
  if (retries !== undefined && retries > 0 && intervalSeconds !== undefined && retriedOtherwise) {
    scope.warn(
      'UNSUPPORTED_SETTING',
      `retries are probed at the check's interval (${intervalSeconds} s), not every ${retryInterval} s`,
      monitor.field('retry_interval'),
    );
  }
  const timeout = num(monitor, 'timeout');
  const timeoutMs = !push && timeout !== undefined && timeout > 0 ? scope.timeoutMs(timeout * 1000, intervalSeconds, monitor.field('timeout')) : undefined;
  // The tool's default is no retries: down on the first failure.
  return { timeoutMs, failuresBeforeDown: (retries ?? 0) + 1 };
}

function dropNotifications(monitor: MonitorRecord, scope: ItemScope, field: string, group: boolean): void {
  if (monitor.notifications.length === 0) return;
  const names = monitor.notifications.map((name) => JSON.stringify(name)).join(', ');
  const todo = group ? "the group becomes a label, so set up alerting for its monitors' checks" : 'set up alerting for the check';
  scope.warn(
    'NOTIFICATIONS_DROPPED',
    `the links to the notifications ${names} were not imported (notification bindings never carry over): ${todo} again`,
    field,
  );
}

/** The `group` label a group monitor gives its members: the path of group names, its own last. */
const groupLabel = (placement: Placement, name: string) => (placement.group === undefined ? name : `${placement.group} / ${name}`);

function convertMonitor(
  builder: ConversionBuilder,
  data: MonitorExport,
  monitor: MonitorRecord,
  index: number,
  placement: Placement,
  membersOf: (label: string) => number,
): string | void {
  const id = num(monitor, 'id');
  const name = text(monitor, 'name')?.trim() ?? '';
  const scope = builder.item(name !== '' ? name : id !== undefined ? `monitor #${id}` : `monitor ${index + 1}`);
  const type = text(monitor, 'type')?.trim();
  if (type === GROUP_TYPE) {
    dropNotifications(monitor, scope, data.fields.notifications, true);
    // Named in the answer like every input item: what the group became instead of a check.
    const label = groupLabel(placement, name !== '' ? name : `group #${id}`);
    const members = membersOf(label);
    builder.skip(scope, 'BECAME_LABEL', `became the label group=${label} on its ${members} monitor${members === 1 ? '' : 's'}`, monitor.field('type'));
    return;
  }
  if (type === undefined) return builder.skip(scope, 'INVALID_ITEM', 'the monitor has no type', monitor.field('type'));
  const mapper = own(TYPE_MAPPERS, type);
  if (mapper === undefined) {
    const what = own(UNSUPPORTED_TYPES, type);
    const message = what
      ? `monitors of type "${type}" (${what}) have no equivalent check type; the monitor was skipped`
      : `the monitor type "${type}" is unknown; the monitor was skipped`;
    return builder.skip(scope, 'UNSUPPORTED_TYPE', message, monitor.field('type'));
  }
  const mapping = mapper(monitor, scope);
  if (isSkip(mapping)) return builder.skip(scope, mapping.skip, mapping.message, mapping.field);
  if (mapping.type !== 'http') dropExpiryReminders(monitor, scope, false);
  unsupported(monitor, scope, 'ip_family', 'forcing IPv4 or IPv6 has no equivalent; the check uses whichever address the name resolves to');
  const intervalSeconds = scope.intervalSeconds(num(monitor, 'interval'), monitor.field('interval'));
  const thresholds = thresholdsOf(monitor, scope, intervalSeconds, mapping.type === 'heartbeat');
  const labels = labelsOf(monitor, scope, placement.group, data.fields.tags);
  dropNotifications(monitor, scope, data.fields.notifications, false);
  return builder.emit(scope, {
    name,
    type: mapping.type,
    enabled: (flag(monitor, 'active') ?? true) && placement.groupsActive,
    intervalSeconds,
    target: mapping.target,
    config: { ...mapping.config, invert: flag(monitor, 'upside_down') },
    thresholds,
    labels,
    description: importDescription(text(monitor, 'description'), scope, monitor.field('description')),
    pingToken: mapping.pingToken,
  })?.slug;
}

/**
 * Converts the monitors of a read export, in the source's order: each monitor type maps to a
 * check type or is skipped with `UNSUPPORTED_TYPE`; group monitors produce no check but name
 * the `group` label of the monitors inside them (which are disabled when a group is paused); tags become labels; secrets and notification
 * links are dropped with warnings. Maintenance entries then become windows over the checks of
 * their monitors (see map-maintenance.ts).
 */
export function convertExport(data: MonitorExport, options: ConvertOptions = {}): ConversionResult {
  const builder = new ConversionBuilder(SOURCE);
  const placementOf = placements(data.monitors);
  const members = new Map<string, number>();
  for (const monitor of data.monitors) {
    const group = text(monitor, 'type') === GROUP_TYPE ? undefined : placementOf(monitor).group;
    if (group !== undefined) members.set(group, (members.get(group) ?? 0) + 1);
  }
  const membersOf = (label: string) => members.get(label) ?? 0;
  const total = data.monitors.length;
  const slugs = new Map<number, string>();
  data.monitors.forEach((monitor, index) => {
    const slug = convertMonitor(builder, data, monitor, index, placementOf(monitor), membersOf);
    const id = num(monitor, 'id');
    if (slug && id !== undefined) slugs.set(id, slug);
    if ((index + 1) % PROGRESS_EVERY === 0) options.onProgress?.(index + 1, total);
  });
  convertMaintenance(data.maintenance ?? [], builder, (id) => slugs.get(id));
  options.onProgress?.(total, total);
  return builder.result();
}
