import { isRecord } from '../shared/input-text.js';
import type { ItemScope } from '../shared/item-scope.js';
import { importLabels } from '../shared/labels.js';
import { describeValue, textValue } from '../shared/values.js';
import { keepPlaceholders } from './keep-placeholders.js';

/** The labels of an endpoint: `group` as the `group` label, then each of `extra-labels`. */
export function endpointLabels(endpoint: Record<string, unknown>, scope: ItemScope): Record<string, string> {
  const entries: [string, string][] = [];
  const group = textValue(endpoint.group)?.trim();
  if (group) {
    keepPlaceholders(scope, group, 'group');
    entries.push(['group', group]);
  }
  const extra = endpoint['extra-labels'];
  if (isRecord(extra)) {
    for (const [key, raw] of Object.entries(extra)) {
      const value = textValue(raw);
      if (value === undefined) {
        scope.warn('UNSUPPORTED_SETTING', `the label ${key} is ${describeValue(raw)}, not text; left out`, `extra-labels.${key}`);
        continue;
      }
      keepPlaceholders(scope, value, `extra-labels.${key}`);
      entries.push([key, value]);
    }
  } else if (extra !== undefined && extra !== null) {
    scope.warn('UNSUPPORTED_SETTING', '`extra-labels` is not a mapping and was ignored', 'extra-labels');
  }
  return importLabels(entries, scope, 'extra-labels');
}
