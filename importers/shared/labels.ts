import { MAX_LABELS } from '../../checks/index.js';
import type { ItemScope } from './item-scope.js';
import { MANAGED_LABEL_KEY } from './sources.js';
import { cutCodePoints } from './values.js';

const MAX_KEY_LENGTH = 64;
const MAX_VALUE_LENGTH = 256;

// Lengths in code points, not UTF-16 units: the catalog's label patterns count with the `u` flag.
/** A label key the catalog accepts, made from free text (a tag name, a group); '' when nothing is left. */
export function labelKey(text: string): string {
  return cutCodePoints(text.replace(/[=,\p{Cc}]+/gu, '-').trim(), MAX_KEY_LENGTH).trim();
}

/** A label value the catalog accepts, made from free text. */
export function labelValue(text: string): string {
  return cutCodePoints(text.replace(/\p{Cc}+/gu, ' '), MAX_VALUE_LENGTH);
}

/**
 * Turns the source's labels (tags, groups, extra labels) into labels the catalog accepts:
 * keys and values are cleaned, and each change is a `VALUE_ADJUSTED` warning on `field`. The
 * managed label is reserved and one slot is kept for it; labels beyond the limit are dropped
 * with a warning. Later entries with the same key replace earlier ones.
 */
export function importLabels(entries: Iterable<readonly [string, string]>, scope: ItemScope, field: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let dropped = 0;
  for (const [rawKey, rawValue] of entries) {
    const key = labelKey(rawKey);
    const value = labelValue(rawValue);
    if (key === '' || key === MANAGED_LABEL_KEY || key === '__proto__') {
      scope.warn('VALUE_ADJUSTED', `the label ${JSON.stringify(rawKey)} cannot be used as a label key and was left out`, field);
      continue;
    }
    if (key !== rawKey || value !== rawValue) {
      scope.warn(
        'VALUE_ADJUSTED',
        `the label ${JSON.stringify(rawKey)} was stored as ${JSON.stringify(key)}=${JSON.stringify(value)} ` +
          '(label keys have at most 64 characters without "=" or ","; values at most 256 without control characters)',
        field,
      );
    }
    if (!Object.hasOwn(labels, key) && Object.keys(labels).length >= MAX_LABELS - 1) {
      dropped++;
      continue;
    }
    labels[key] = value;
  }
  if (dropped > 0) {
    scope.warn('VALUE_ADJUSTED', `${dropped} label(s) left out: a check has at most ${MAX_LABELS} labels`, field);
  }
  return labels;
}
