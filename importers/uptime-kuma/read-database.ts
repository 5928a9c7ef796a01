import type initSqlJs from 'sql.js';
import { ImportInputError } from '../converter.js';
import { RowRecord, type DockerHost, type MonitorExport, type MonitorTag } from './monitor-record.js';
import { INPUT_HINT } from './input-hint.js';
import type { MaintenanceRecord } from './maintenance-record.js';
import { MONITOR_COLUMNS } from './monitor-columns.js';
import type { SqlJs } from './sql-js.js';
import { sqliteHeaderProblem, withoutWalMode } from './sqlite-header.js';

type Database = initSqlJs.Database;
type SqlValue = initSqlJs.SqlValue;

// Only the tables that describe monitors and their maintenance are read. The status history (heartbeat and its
// aggregates) never carries over, so it is never queried.

function unreadable(reason: string, cause?: unknown): ImportInputError {
  return new ImportInputError(
    `the file starts like a SQLite database but cannot be read (${reason}); it may be truncated or damaged: ` +
      `copy the database file again while the self-hosted monitor is stopped. ${INPUT_HINT}`,
    { cause },
  );
}

function rows(db: Database, sql: string): { columns: string[]; values: SqlValue[][] } {
  try {
    const [result] = db.exec(sql);
    return result ?? { columns: [], values: [] };
  } catch (error) {
    throw unreadable(error instanceof Error ? error.message : String(error), error);
  }
}

/**
 * The stored columns of `table`. Generated (computed) columns count as absent: reading one runs
 * an expression the file's author chose, which a crafted database makes arbitrarily slow.
 */
function columnsOf(db: Database, table: string): Set<string> {
  const info = rows(db, `PRAGMA table_xinfo("${table}")`);
  const nameAt = info.columns.indexOf('name');
  const hiddenAt = info.columns.indexOf('hidden');
  return new Set(info.values.filter((row) => row[hiddenAt] === 0).map((row) => String(row[nameAt])));
}

/** `name` as an SQL identifier. */
const identifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

function hasColumns(columns: Set<string>, ...names: string[]): boolean {
  return names.every((name) => columns.has(name));
}

function idOf(value: SqlValue): number | undefined {
  return typeof value === 'number' ? value : undefined;
}

function groupBy<T>(entries: Iterable<[number | undefined, T]>): Map<number, T[]> {
  const map = new Map<number, T[]>();
  for (const [id, entry] of entries) {
    if (id === undefined) continue;
    const list = map.get(id);
    if (list) list.push(entry);
    else map.set(id, [entry]);
  }
  return map;
}

function readTags(db: Database, tables: Set<string>): Map<number, MonitorTag[]> {
  if (!tables.has('tag') || !tables.has('monitor_tag')) return new Map();
  if (!hasColumns(columnsOf(db, 'tag'), 'id', 'name')) return new Map();
  const monitorTagColumns = columnsOf(db, 'monitor_tag');
  if (!hasColumns(monitorTagColumns, 'monitor_id', 'tag_id')) return new Map();
  const hasValue = monitorTagColumns.has('value');
  const result = rows(db, `SELECT mt.monitor_id, t.name, ${hasValue ? 'mt.value' : "''"} FROM monitor_tag mt JOIN tag t ON t.id = mt.tag_id ORDER BY mt.rowid`);
  return groupBy(
    result.values
      .filter((row) => typeof row[1] === 'string')
      .map(([monitorId, name, value]) => [
        idOf(monitorId),
        { name: String(name), value: typeof value === 'string' ? value : value == null ? '' : String(value) },
      ]),
  );
}

function readNotifications(db: Database, tables: Set<string>): Map<number, string[]> {
  if (!tables.has('monitor_notification')) return new Map();
  if (!hasColumns(columnsOf(db, 'monitor_notification'), 'monitor_id', 'notification_id')) return new Map();
  const named = tables.has('notification') && hasColumns(columnsOf(db, 'notification'), 'id', 'name');
  const result = rows(
    db,
    named
      ? 'SELECT mn.monitor_id, mn.notification_id, n.name FROM monitor_notification mn ' +
          'LEFT JOIN notification n ON n.id = mn.notification_id ORDER BY mn.rowid'
      : 'SELECT monitor_id, notification_id, NULL FROM monitor_notification ORDER BY rowid',
  );
  return groupBy(
    result.values.map(([monitorId, notificationId, name]) => [
      idOf(monitorId),
      typeof name === 'string' && name.trim() !== '' ? name : `notification #${String(notificationId)}`,
    ]),
  );
}

function readDockerHosts(db: Database, tables: Set<string>): Map<number, DockerHost> {
  if (!tables.has('docker_host') || !hasColumns(columnsOf(db, 'docker_host'), 'id', 'docker_daemon', 'docker_type')) {
    return new Map();
  }
  const hosts = new Map<number, DockerHost>();
  for (const [id, daemon, type] of rows(db, 'SELECT id, docker_daemon, docker_type FROM docker_host').values) {
    if (typeof id === 'number' && typeof daemon === 'string') hosts.set(id, { daemon, type: typeof type === 'string' ? type : '' });
  }
  return hosts;
}

const MAINTENANCE_COLUMNS = [
  'id',
  'title',
  'description',
  'active',
  'strategy',
  'start_date',
  'end_date',
  'start_time',
  'end_time',
  'weekdays',
  'days_of_month',
  'interval_day',
  'cron',
  'timezone',
  'duration',
] as const;

const textOrNull = (value: SqlValue | undefined) => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null);
const numberOrNull = (value: SqlValue | undefined) =>
  typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : null;

function readMaintenance(db: Database, tables: Set<string>): MaintenanceRecord[] {
  if (!tables.has('maintenance')) return [];
  const stored = columnsOf(db, 'maintenance');
  if (!hasColumns(stored, 'id', 'title', 'strategy')) return [];
  const links =
    tables.has('monitor_maintenance') && hasColumns(columnsOf(db, 'monitor_maintenance'), 'monitor_id', 'maintenance_id')
      ? groupBy(
          rows(db, 'SELECT maintenance_id, monitor_id FROM monitor_maintenance ORDER BY rowid').values.map(([entry, monitor]) => [idOf(entry), idOf(monitor)]),
        )
      : new Map<number, (number | undefined)[]>();
  const wanted = MAINTENANCE_COLUMNS.filter((column) => stored.has(column));
  const result = rows(db, `SELECT ${wanted.map(identifier).join(', ')} FROM maintenance ORDER BY id`);
  return result.values.flatMap((row) => {
    const at = (column: (typeof MAINTENANCE_COLUMNS)[number]) => {
      const index = result.columns.indexOf(column);
      return index < 0 ? undefined : row[index];
    };
    const id = idOf(at('id') ?? null);
    if (id === undefined) return [];
    return [
      {
        id,
        title: textOrNull(at('title')) ?? '',
        description: textOrNull(at('description')),
        active: at('active') !== 0 && at('active') !== '0',
        strategy: textOrNull(at('strategy')) ?? 'single',
        startDate: textOrNull(at('start_date')),
        endDate: textOrNull(at('end_date')),
        startTime: textOrNull(at('start_time')),
        endTime: textOrNull(at('end_time')),
        weekdays: textOrNull(at('weekdays')),
        daysOfMonth: textOrNull(at('days_of_month')),
        intervalDay: numberOrNull(at('interval_day')),
        cron: textOrNull(at('cron')),
        timezone: textOrNull(at('timezone')),
        duration: numberOrNull(at('duration')),
        monitorIds: (links.get(id) ?? []).filter((monitor): monitor is number => monitor !== undefined),
      },
    ];
  });
}

function readMonitors(db: Database, tables: Set<string>): MonitorExport {
  const tags = readTags(db, tables);
  const notifications = readNotifications(db, tables);
  const dockerHosts = readDockerHosts(db, tables);
  const stored = columnsOf(db, 'monitor');
  // Only the columns a mapping reads, by name: never `SELECT *` (see monitor-columns.ts).
  const wanted = MONITOR_COLUMNS.filter((column) => stored.has(column));
  if (wanted.length === 0) return { kind: '2.x database', monitors: [], fields: { tags: 'monitor_tag', notifications: 'monitor_notification' } };
  const result = rows(db, `SELECT ${wanted.map(identifier).join(', ')} FROM monitor${stored.has('id') ? ' ORDER BY id' : ''}`);
  const columns = new Map(result.columns.map((column, i) => [column, i]));
  const idAt = columns.get('id');
  const dockerHostAt = columns.get('docker_host');
  const monitors = result.values.map((row) => {
    const id = idAt === undefined ? undefined : row[idAt];
    const dockerHostId = dockerHostAt === undefined ? undefined : row[dockerHostAt];
    const key = typeof id === 'number' ? id : NaN;
    return new RowRecord(
      columns,
      row,
      tags.get(key) ?? [],
      notifications.get(key) ?? [],
      typeof dockerHostId === 'number' ? dockerHosts.get(dockerHostId) : undefined,
    );
  });
  return { kind: '2.x database', monitors, fields: { tags: 'monitor_tag', notifications: 'monitor_notification' }, maintenance: readMaintenance(db, tables) };
}

/**
 * Reads the monitors of a 2.x database file with sql.js: the `monitor` table by column name
 * (so both the 2.0 and the 2.5 schema, and any columns missing), tags with their values,
 * notification links, Docker hosts and the maintenance entries with their monitors. Throws ImportInputError when the file is damaged or
 * is a SQLite database of some other program (no `monitor` table).
 */
export function readDatabase(sqlJs: SqlJs, bytes: Uint8Array): MonitorExport {
  const problem = sqliteHeaderProblem(bytes);
  if (problem) throw unreadable(problem);
  let db: Database;
  try {
    db = new sqlJs.Database(withoutWalMode(bytes));
  } catch (error) {
    throw unreadable(error instanceof Error ? error.message : String(error), error);
  }
  try {
    const tables = new Set(rows(db, "SELECT name FROM sqlite_master WHERE type = 'table'").values.map((row) => String(row[0])));
    if (!tables.has('monitor')) {
      throw new ImportInputError(`the file is a SQLite database, but not one of the self-hosted monitor: it has no monitor table. ${INPUT_HINT}`);
    }
    return readMonitors(db, tables);
  } finally {
    db.close();
  }
}
