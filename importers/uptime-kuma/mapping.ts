import { COMPARISON_OPERATORS, type CheckTypeName } from '../../checks/index.js';
import type { ItemScope } from '../converter.js';
import { flag, num, text, type MonitorRecord } from './monitor-record.js';

/** The type-specific part of a converted monitor: the check type, its target and config. */
export interface TypeMapping {
  readonly type: CheckTypeName;
  readonly target?: string;
  readonly config: Record<string, unknown>;
  /** A push monitor's token, kept as the heartbeat's ping token. */
  readonly pingToken?: string;
}

/** Why a monitor produces no check. */
export interface SkipItem {
  readonly skip: 'UNSUPPORTED_TYPE' | 'INVALID_ITEM';
  readonly message: string;
  readonly field?: string;
}

/** Converts the type-specific fields of one monitor, raising warnings on `scope`. */
export type TypeMapper = (monitor: MonitorRecord, scope: ItemScope) => TypeMapping | SkipItem;

/**
 * The entry of a lookup table for a key that comes from the source: only the table's own
 * entries count, so "__proto__" or "constructor" find nothing.
 */
export function own<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** Whether a mapper's outcome is a skip. */
export function isSkip(outcome: TypeMapping | SkipItem): outcome is SkipItem {
  return 'skip' in outcome;
}

/** `host:port` (IPv6 addresses in brackets), or the host alone when `port` is undefined. */
export function hostPort(host: string, port: number | string | undefined): string {
  const trimmed = host.trim();
  const bracketed = trimmed.includes(':') && !trimmed.startsWith('[') ? `[${trimmed}]` : trimmed;
  return port === undefined || port === '' ? bracketed : `${bracketed}:${port}`;
}

/**
 * Drops a secret field when it is set: a `SECRET_DROPPED` warning naming the field and
 * saying what it was. Returns whether there was one.
 */
export function dropSecret(monitor: MonitorRecord, scope: ItemScope, column: string, what: string): boolean {
  if (text(monitor, column) === undefined) return false;
  scope.warn('SECRET_DROPPED', `${what} was not imported (secrets never carry over): re-enter it`, monitor.field(column));
  return true;
}

/**
 * For a secret field that is set: a reference to the check's secret `field` (e.g.
 * `PASSWORD`), with the `SECRET_DROPPED` warning saying which secret to set. The value never
 * carries over. Undefined when the field is empty.
 */
export function referSecret(monitor: MonitorRecord, scope: ItemScope, column: string, field: string, what: string): string | undefined {
  if (text(monitor, column) === undefined) return undefined;
  return scope.secretFor(field, what, monitor.field(column));
}

/**
 * For a monitor type whose code never passes "ignore TLS errors" on: the check verifies
 * certificates as the tool did, and a set flag is reported (`VALUE_ADJUSTED`).
 */
export function certificatesVerified(monitor: MonitorRecord, scope: ItemScope): false {
  if (flag(monitor, 'ignore_tls') === true) {
    scope.warn('VALUE_ADJUSTED', 'the tool verified the certificate although TLS errors were to be ignored; so does the check', monitor.field('ignore_tls'));
  }
  return false;
}

/** Reports a setting that has no equivalent, when it is set. */
export function unsupported(monitor: MonitorRecord, scope: ItemScope, column: string, message: string): void {
  if (text(monitor, column) !== undefined) scope.warn('UNSUPPORTED_SETTING', message, monitor.field(column));
}

type Operator = (typeof COMPARISON_OPERATORS)[number];

/**
 * A comparison operator of the catalog from the source's operator (`==`, `contains`, ...);
 * absent means `==`. An unknown operator is `==` with an `UNSUPPORTED_SETTING` warning.
 */
export function operator(monitor: MonitorRecord, scope: ItemScope, column: string): Operator {
  const value = text(monitor, column)?.trim();
  if (value === undefined) return '==';
  if ((COMPARISON_OPERATORS as readonly string[]).includes(value)) return value as Operator;
  scope.warn('UNSUPPORTED_SETTING', `the operator ${JSON.stringify(value)} has no equivalent; == is used`, monitor.field(column));
  return '==';
}

/** The catalog's bound of a JSON query's expression and of an expected value, in characters. */
export const MAX_QUERY_TEXT = 1024;

/** A keyword config (`present` or, inverted, `absent`), or undefined for an empty keyword. */
export function keyword(value: string | undefined, absent: boolean, caseSensitive = true) {
  if (value === undefined || value === '') return undefined;
  return { value, expect: absent ? ('absent' as const) : ('present' as const), caseSensitive };
}

/**
 * A whole number within `min`-`max` from a numeric field; a value outside is moved to the
 * nearest bound with a `VALUE_ADJUSTED` warning that names `what`. Undefined when absent.
 */
export function wholeNumber(monitor: MonitorRecord, scope: ItemScope, column: string, what: string, [min, max]: readonly [number, number]): number | undefined {
  const value = num(monitor, column);
  if (value === undefined) return undefined;
  const fitted = Math.min(max, Math.max(min, Math.round(value)));
  if (fitted !== value) {
    scope.warn('VALUE_ADJUSTED', `the ${what} of ${value} was changed to ${fitted} (allowed: ${min}-${max})`, monitor.field(column));
  }
  return fitted;
}

/** The host name field, trimmed; undefined when blank. */
export function hostOf(monitor: MonitorRecord): string | undefined {
  return text(monitor, 'hostname')?.trim();
}

/** The skip for a monitor that lacks a field it cannot do without. */
export function missing(monitor: MonitorRecord, column: string, what: string): SkipItem {
  return { skip: 'INVALID_ITEM', message: `the monitor has no ${what}`, field: monitor.field(column) };
}
