import type { ItemScope } from '../shared/item-scope.js';
import { describeValue, textValue } from '../shared/values.js';
import { parseGoDuration } from './go-duration.js';

/**
 * Reads a Go duration field (`interval`, `heartbeat.interval`) as seconds. A bare number is
 * read as seconds with a warning; anything else unreadable gives undefined with a warning.
 */
export function readDurationSeconds(raw: unknown, field: string, scope: ItemScope, fallback: string): number | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (typeof raw === 'number') {
    scope.warn('VALUE_ADJUSTED', `${field} ${raw} has no unit; read as ${raw} seconds`, field);
    return raw;
  }
  const ms = parseGoDuration(textValue(raw) ?? '');
  if (ms === undefined) {
    scope.warn('VALUE_ADJUSTED', `${field} ${describeValue(raw)} is not a duration such as 30s or 1h30m; ${fallback} is used`, field);
    return undefined;
  }
  return ms / 1000;
}
