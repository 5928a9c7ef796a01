import type { MaintenanceRecord } from './maintenance-record.js';

// One monitor of the self-hosted monitor, whichever export it came from. The 2.x database
// names its columns in snake_case; the 1.x backup mixes camelCase and snake_case. Both are
// read through the 2.x column names, and warnings name the field as the source spelled it.

/** A tag on a monitor: its name and the value of this link (empty when none). */
export interface MonitorTag {
  readonly name: string;
  readonly value: string;
}

/** The Docker engine a docker monitor talks to, from the `docker_host` table. */
export interface DockerHost {
  /** `socket` or `tcp`. */
  readonly type: string;
  /** A socket path or a `tcp://`/`http://` address. */
  readonly daemon: string;
}

/** Everything about one monitor that the converter reads. */
export interface MonitorRecord {
  /** A field's value by its 2.x column name; undefined when the source lacks it. */
  value(column: string): unknown;
  /** The field's name as the source spells it (for warnings). */
  field(column: string): string;
  /** The monitor's tags, in the order the source lists them. */
  readonly tags: readonly MonitorTag[];
  /** The names of the notifications the monitor is linked to. */
  readonly notifications: readonly string[];
  /** The Docker engine, when the source knows it (only the 2.x database does). */
  readonly dockerHost?: DockerHost;
}

/** A readable export: its kind and its monitors in the source's order. */
export interface MonitorExport {
  readonly kind: '2.x database' | '1.x backup';
  readonly monitors: readonly MonitorRecord[];
  /** How the source names a monitor's tags and notification links, for warnings. */
  readonly fields: { readonly tags: string; readonly notifications: string };
  /** The maintenance entries (only the 2.x database has them). */
  readonly maintenance?: readonly MaintenanceRecord[];
}

/** A record over a map from column name to value: a normalised entry of the 1.x backup. */
export class ColumnRecord implements MonitorRecord {
  readonly #values: ReadonlyMap<string, unknown>;
  readonly #spelling: ReadonlyMap<string, string>;

  constructor(
    values: ReadonlyMap<string, unknown>,
    spelling: ReadonlyMap<string, string>,
    readonly tags: readonly MonitorTag[],
    readonly notifications: readonly string[],
    readonly dockerHost?: DockerHost,
  ) {
    this.#values = values;
    this.#spelling = spelling;
  }

  value(column: string): unknown {
    return this.#values.get(column);
  }

  field(column: string): string {
    return this.#spelling.get(column) ?? column;
  }
}

/**
 * A record over one row of the 2.x `monitor` table: values stay in the row as sql.js returned
 * it and are found through the shared column index (tens of thousands of rows are read at once).
 */
export class RowRecord implements MonitorRecord {
  readonly #columns: ReadonlyMap<string, number>;
  readonly #row: readonly unknown[];

  constructor(
    columns: ReadonlyMap<string, number>,
    row: readonly unknown[],
    readonly tags: readonly MonitorTag[],
    readonly notifications: readonly string[],
    readonly dockerHost?: DockerHost,
  ) {
    this.#columns = columns;
    this.#row = row;
  }

  value(column: string): unknown {
    const index = this.#columns.get(column);
    const value = index === undefined ? undefined : this.#row[index];
    return value instanceof Uint8Array ? undefined : value;
  }

  field(column: string): string {
    return column;
  }
}

/** A field as text: strings as they are (undefined when blank), finite numbers as digits. */
export function text(record: MonitorRecord, column: string): string | undefined {
  const value = record.value(column);
  if (typeof value === 'string') return value.trim() === '' ? undefined : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** A field as a finite number (numeric strings included). */
export function num(record: MonitorRecord, column: string): number | undefined {
  const value = record.value(column);
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

/** A field as a boolean: true/false, 1/0 and their text forms. */
export function flag(record: MonitorRecord, column: string): boolean | undefined {
  const value = record.value(column);
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === '1' || value === 'true') return true;
  if (value === 0 || value === '0' || value === 'false') return false;
  return undefined;
}

/**
 * A field holding JSON: text is parsed (`{ok: false}` when it is not JSON), anything else
 * (the backup stores some of these already parsed) is taken as is. Undefined when absent or blank.
 */
export function json(record: MonitorRecord, column: string): { ok: true; value: unknown } | { ok: false } | undefined {
  const value = record.value(column);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') return { ok: true, value };
  if (value.trim() === '') return undefined;
  try {
    return { ok: true, value: JSON.parse(value) as unknown };
  } catch {
    return { ok: false };
  }
}
