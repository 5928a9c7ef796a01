import type { ItemScope } from '../shared/item-scope.js';
import { placeholdersIn } from './placeholders.js';

// A credential that is nothing but `${VAR}`: the variable names the secret.
const WHOLE_PLACEHOLDER = /^\$\{([A-Za-z_][A-Za-z0-9_.-]{0,63})\}$/;

/**
 * The reference a credential field of the check gets: to the secret named by the source's
 * `${VAR}` placeholder when the value is one, else to the check's own secret for `field`. The
 * value itself never carries over; the warning says which secret to set.
 */
export function credentialReference(scope: ItemScope, value: string, field: string, what: string, sourceField: string): string {
  const variable = WHOLE_PLACEHOLDER.exec(value.trim())?.[1];
  return variable === undefined ? scope.secretFor(field, what, sourceField) : scope.namedSecret(variable, what, sourceField);
}

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
      'a credential goes into an organization secret, svc secrets set NAME, and the check refers to it as {{secrets.NAME}})',
    field,
  );
}

/**
 * Why an endpoint cannot be imported when `value`, its host, port or DNS name, holds `${VAR}`
 * placeholders: the check cannot run without the real value. Undefined when it holds none.
 */
export function unresolvedPlaceholders(value: string, what: string): string | undefined {
  const found = placeholdersIn(value);
  if (found.length === 0) return undefined;
  return (
    `the ${what} ${JSON.stringify(value)} holds ${found.join(', ')}, which svc does not substitute, and a check cannot run without it: ` +
    'write the real value in the configuration and import again'
  );
}
