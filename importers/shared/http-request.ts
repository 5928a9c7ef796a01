import { HTTP_METHODS } from '../../checks/index.js';
import type { ItemScope } from './item-scope.js';
import { importBoundedText } from './bounded-text.js';

// The request settings that read the same in several sources. Each takes the source's value
// (undefined when absent or blank) and the field it came from, in the source's own spelling.

const MAX_KEYWORD = 1024;

/**
 * The HTTP method, upper-cased; a method the catalog does not know is left out with an
 * `UNSUPPORTED_SETTING` warning (the check then uses GET).
 */
export function importHttpMethod(value: string | undefined, scope: ItemScope, field: string): string | undefined {
  const method = value?.trim().toUpperCase();
  if (method === undefined) return undefined;
  if ((HTTP_METHODS as readonly string[]).includes(method)) return method;
  scope.warn('UNSUPPORTED_SETTING', `the method ${JSON.stringify(method)} has no equivalent; GET is used`, field);
  return undefined;
}

/** The request body; one longer than 65,536 characters is left out with an `UNSUPPORTED_SETTING` warning. */
export function importRequestBody(value: string | undefined, scope: ItemScope, field: string): string | undefined {
  return importBoundedText(value, scope, field, 'request body');
}

/** The text a keyword check looks for; one longer than 1,024 characters is left out with an `UNSUPPORTED_SETTING` warning. */
export function importKeywordText(value: string | undefined, scope: ItemScope, field: string): string | undefined {
  return importBoundedText(value, scope, field, 'keyword', MAX_KEYWORD);
}

/** The `VALUE_ADJUSTED` warning for a keyword check without a keyword: only the status code is tested. */
export function warnEmptyKeyword(scope: ItemScope, field: string): void {
  scope.warn('VALUE_ADJUSTED', 'the keyword is empty; the check only tests the status code', field);
}
