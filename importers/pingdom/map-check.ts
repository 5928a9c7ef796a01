import type { ConversionBuilder } from '../shared/conversion-builder.js';
import { isRecord } from '../shared/input-text.js';
import type { ItemScope } from '../shared/item-scope.js';
import { importDescription } from '../shared/description.js';
import { importLabels } from '../shared/labels.js';
import { describeValue, flagValue, integerValue, textValue } from '../shared/values.js';
import { CHECK_KINDS } from './check-kinds.js';
import type { ListedCheck } from './read-checks.js';

// Pingdom gives up on a test after 30 s; `responsetime_threshold` (ms) makes a slower answer down.
const DEFAULT_TIMEOUT_MS = 30_000;
const NOTIFICATION_FIELDS = ['integrationids', 'userids', 'teamids', 'notifyagainevery', 'notifywhenbackup', 'alert_policy'];

// `type` is the type's name in the listing and `{"<name>": {settings}}` in a detail.
function kindOf(check: Record<string, unknown>): { kind: string; settings: Record<string, unknown> } {
  if (isRecord(check.type)) {
    const [kind] = Object.keys(check.type);
    const settings = kind === undefined ? undefined : check.type[kind];
    return { kind: kind ?? '', settings: isRecord(settings) ? settings : {} };
  }
  return { kind: textValue(check.type)?.trim().toLowerCase() ?? '', settings: {} };
}

function tagLabels(check: Record<string, unknown>): [string, string][] {
  if (!Array.isArray(check.tags)) return [];
  return check.tags.flatMap((tag): [string, string][] => {
    const name = isRecord(tag) ? textValue(tag.name) : textValue(tag);
    return name?.trim() ? [[name.trim(), '']] : [];
  });
}

function reportDropped(check: Record<string, unknown>, scope: ItemScope): void {
  const bound = NOTIFICATION_FIELDS.filter((field) => {
    const value = check[field];
    return value !== undefined && value !== null && value !== false && value !== 0 && !(Array.isArray(value) && value.length === 0);
  });
  if (bound.length > 0) scope.warn('NOTIFICATIONS_DROPPED', `alerting (${bound.join(', ')}) is not imported; set up notifications in svc`, bound[0]);
  if (Array.isArray(check.probe_filters) && check.probe_filters.length > 0) {
    scope.warn('UNSUPPORTED_SETTING', `testing from chosen regions (${check.probe_filters.map(describeValue).join(', ')}) is not supported`, 'probe_filters');
  }
  if (flagValue(check.ipv6) === true)
    scope.warn('UNSUPPORTED_SETTING', 'forcing IPv6 (ipv6: true) is not supported; the check connects to the first address resolved', 'ipv6');
}

function failuresBeforeDown(check: Record<string, unknown>, scope: ItemScope): number | undefined {
  const count = integerValue(check.sendnotificationwhendown);
  if (count === undefined || count <= 0) return undefined;
  if (count > 100) {
    scope.warn('VALUE_ADJUSTED', `sendnotificationwhendown ${count} was changed to 100`, 'sendnotificationwhendown');
    return 100;
  }
  return count;
}

/** Converts one check of the listing or the details into a check (or a skip), with its warnings. */
export function convertCheck({ raw, detailed, position }: ListedCheck, builder: ConversionBuilder): void {
  if (!isRecord(raw)) {
    builder.skip(builder.item(position), 'INVALID_ITEM', `the check is ${describeValue(raw)}, not an object`);
    return;
  }
  const name = textValue(raw.name)?.trim() ?? '';
  const id = textValue(raw.id);
  const scope = builder.item(name || (id ? `check ${id}` : position));
  if (name === '') {
    builder.skip(scope, 'INVALID_ITEM', 'the check has no name', 'name');
    return;
  }
  const { kind, settings } = kindOf(raw);
  if (kind === 'transaction') {
    builder.skip(scope, 'UNSUPPORTED_TYPE', 'a transaction check scripts a browser through several steps; it has no equivalent and was skipped', 'type');
    return;
  }
  const mapKind = Object.hasOwn(CHECK_KINDS, kind) ? CHECK_KINDS[kind] : undefined;
  if (!mapKind) {
    builder.skip(scope, 'UNSUPPORTED_TYPE', `the check type ${describeValue(raw.type)} has no equivalent; the check was skipped`, 'type');
    return;
  }
  const hostname = textValue(raw.hostname)?.trim() ?? '';
  if (hostname === '') {
    builder.skip(scope, 'INVALID_ITEM', 'the check has no hostname', 'hostname');
    return;
  }
  const mapped = mapKind({ hostname, settings, detailed, check: raw }, scope);
  if (typeof mapped === 'string') {
    builder.skip(scope, 'INVALID_ITEM', mapped, 'port');
    return;
  }
  reportDropped(raw, scope);
  const resolution = integerValue(raw.resolution);
  const intervalSeconds = scope.intervalSeconds(resolution === undefined ? undefined : resolution * 60, 'resolution');
  const threshold = integerValue(raw.responsetime_threshold);
  const paused = textValue(raw.status) === 'paused' || flagValue(raw.paused) === true;
  builder.emit(scope, {
    name,
    type: mapped.type,
    enabled: !paused,
    intervalSeconds,
    target: mapped.target,
    config: mapped.config,
    thresholds: {
      timeoutMs: scope.timeoutMs(threshold !== undefined && threshold > 0 ? threshold : DEFAULT_TIMEOUT_MS, intervalSeconds, 'responsetime_threshold'),
      failuresBeforeDown: failuresBeforeDown(raw, scope),
    },
    labels: importLabels(tagLabels(raw), scope, 'tags'),
    description: importDescription(textValue(raw.custom_message)?.trim() || undefined, scope, 'custom_message'),
  });
}
