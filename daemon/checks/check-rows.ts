import type { Selectable } from 'kysely';
import type { CheckDefinition } from '../../checks/index.js';
import type { ChecksTable } from '../db/schema.js';
import type { Check } from '../../contract/responses.js';
import { canonicalJson } from './canonical-json.js';

/** A check as stored: its normalised definition plus identity and timestamps. */
export type StoredCheck = CheckDefinition & {
  /** Time-ordered id; never changes, even when the slug does. */
  uid: string;
  createdAt: string;
  updatedAt: string;
};

/** The columns of a check row that its definition determines (all but uid, org and timestamps). */
export type CheckContent = Pick<
  ChecksTable,
  'slug' | 'name' | 'type' | 'enabled' | 'interval_seconds' | 'target' | 'config' | 'thresholds' | 'labels' | 'description'
>;

/** The row content of a normalised definition. */
export function checkContent(check: CheckDefinition): CheckContent {
  return {
    slug: check.slug,
    name: check.name,
    type: check.type,
    enabled: check.enabled ? 1 : 0,
    interval_seconds: check.intervalSeconds,
    target: check.target,
    config: JSON.stringify(check.config),
    thresholds: JSON.stringify(check.thresholds),
    labels: JSON.stringify(check.labels),
    description: check.description ?? null,
  };
}

/** Reads a stored row back into a check. */
export function rowToCheck(row: Selectable<ChecksTable>): StoredCheck {
  const check = {
    uid: row.uid,
    slug: row.slug,
    name: row.name,
    type: row.type,
    enabled: Boolean(row.enabled),
    intervalSeconds: Number(row.interval_seconds),
    target: row.target,
    config: JSON.parse(row.config),
    thresholds: JSON.parse(row.thresholds),
    labels: JSON.parse(row.labels),
    ...(row.description === null ? {} : { description: row.description }),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
  return check as StoredCheck;
}

/**
 * Whether storing `check` over `row` would change anything. Compared on meaning, not on
 * text, so a re-run import that produces the same definition reports "unchanged". `next` is
 * `checkContent(check)`, for a caller that has it already.
 */
export function sameContent(row: Selectable<ChecksTable>, check: CheckDefinition, next: CheckContent = checkContent(check)): boolean {
  return (
    row.slug === next.slug &&
    row.name === next.name &&
    row.type === next.type &&
    Number(row.enabled) === next.enabled &&
    Number(row.interval_seconds) === next.interval_seconds &&
    row.target === next.target &&
    (row.description ?? null) === next.description &&
    canonicalJson(JSON.parse(row.config)) === canonicalJson(check.config) &&
    canonicalJson(JSON.parse(row.thresholds)) === canonicalJson(check.thresholds) &&
    canonicalJson(JSON.parse(row.labels)) === canonicalJson(check.labels)
  );
}

/** The API's view of a check: the definition and its timestamps (the slug identifies it). */
export function checkView(check: StoredCheck): Check {
  const { uid: _uid, ...view } = check;
  return view;
}
