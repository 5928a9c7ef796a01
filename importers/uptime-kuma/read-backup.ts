import { ImportInputError, isRecord } from '../converter.js';
import { INPUT_HINT } from './input-hint.js';
import { ColumnRecord, type MonitorExport, type MonitorTag } from './monitor-record.js';

// The 1.x backup spells most fields in camelCase (retryInterval, ignoreTls, pushToken) and some
// in snake_case (basic_auth_user, dns_resolve_type); these map to the 2.x column names.
const COLUMN_ALIASES: Readonly<Record<string, string>> = {
  accepted_statuscodes: 'accepted_statuscodes_json',
  acceptedStatuscodes: 'accepted_statuscodes_json',
  acceptedStatusCodes: 'accepted_statuscodes_json',
  proxyId: 'proxy_id',
};

// Entries handled on their own, or that describe the monitor's place in the tool's UI.
const NOT_COLUMNS = new Set(['tags', 'notificationIDList', 'childrenIDs', 'pathName', 'includeSensitiveData', 'maintenance']);

function columnName(key: string): string {
  const alias = Object.hasOwn(COLUMN_ALIASES, key) ? COLUMN_ALIASES[key] : undefined;
  return alias ?? key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

function readTags(value: unknown): MonitorTag[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).flatMap((tag) => {
    if (typeof tag.name !== 'string') return [];
    const tagValue = typeof tag.value === 'string' ? tag.value : typeof tag.value === 'number' ? String(tag.value) : '';
    return [{ name: tag.name, value: tagValue }];
  });
}

// `notificationIDList` is an object keyed by notification id ({"1": true}); lists of ids are
// read too. Unknown ids are named by their number.
function readNotifications(value: unknown, names: ReadonlyMap<string, string>): string[] {
  let ids: string[] = [];
  if (Array.isArray(value)) ids = value.filter((id) => typeof id === 'number' || typeof id === 'string').map(String);
  else if (isRecord(value)) ids = Object.keys(value).filter((id) => value[id] === true || value[id] === 1 || value[id] === '1');
  return ids.map((id) => names.get(id) ?? `notification #${id}`);
}

function notificationNames(list: unknown): Map<string, string> {
  const names = new Map<string, string>();
  if (!Array.isArray(list)) return names;
  for (const entry of list) {
    if (!isRecord(entry) || (typeof entry.id !== 'number' && typeof entry.id !== 'string')) continue;
    if (typeof entry.name === 'string' && entry.name.trim() !== '') names.set(String(entry.id), entry.name);
  }
  return names;
}

function readEntry(entry: unknown, names: ReadonlyMap<string, string>): ColumnRecord {
  const values = new Map<string, unknown>();
  const spelling = new Map<string, string>();
  if (!isRecord(entry)) return new ColumnRecord(values, spelling, [], []);
  // Exact column names first, so that a snake_case field wins over its camelCase twin.
  const keys = Object.keys(entry)
    .filter((key) => !NOT_COLUMNS.has(key))
    .map((key) => ({ key, column: columnName(key) }));
  for (const { key, column } of [...keys.filter((k) => k.column === k.key), ...keys.filter((k) => k.column !== k.key)]) {
    if (values.has(column)) continue;
    values.set(column, entry[key]);
    spelling.set(column, key);
  }
  return new ColumnRecord(values, spelling, readTags(entry.tags), readNotifications(entry.notificationIDList, names));
}

/**
 * Reads a 1.x backup (`{version, notificationList, monitorList}`) already parsed from JSON.
 * Throws ImportInputError when the value is not such a backup; an unusable entry of
 * `monitorList` becomes an empty record that the converter reports.
 */
export function readBackup(value: unknown): MonitorExport {
  if (!isRecord(value) || !Array.isArray(value.monitorList)) {
    const what = Array.isArray(value) ? 'a JSON list' : isRecord(value) ? 'a JSON object without a monitorList' : 'a JSON value';
    throw new ImportInputError(`the input is ${what}, not a backup of the self-hosted monitor. ${INPUT_HINT}`);
  }
  const names = notificationNames(value.notificationList);
  return {
    kind: '1.x backup',
    monitors: value.monitorList.map((entry) => readEntry(entry, names)),
    fields: { tags: 'tags', notifications: 'notificationIDList' },
  };
}
