import type { ItemScope } from '../shared/item-scope.js';
import { placeholdersIn } from './placeholders.js';

/**
 * Warns when a value that goes into the check holds `${VAR}` placeholders: svc does not
 * substitute environment variables, so the text is kept verbatim and must be replaced.
 */
export function keepPlaceholders(scope: ItemScope, value: string | undefined, field: string): void {
  if (value === undefined) return;
  const found = placeholdersIn(value);
  if (found.length === 0) return;
  scope.warn(
    'UNSUPPORTED_SETTING',
    `${found.join(', ')} ${found.length === 1 ? 'is an environment placeholder' : 'are environment placeholders'} ` +
      'that svc does not substitute; kept verbatim. Replace it with the real value (a placeholder often stands for a secret: ' +
      'secrets must be re-entered in svc, never written into the check)',
    field,
  );
}
