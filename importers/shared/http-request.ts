import { HTTP_METHODS } from '../../checks/index.js';
import type { ItemScope } from './item-scope.js';

// The request settings that read the same in several sources. Each takes the source's value
// (undefined when absent or blank) and the field it came from, in the source's own spelling.

const MAX_BODY = 65_536;
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
  if (value === undefined || value.length <= MAX_BODY) return value;
  scope.warn('UNSUPPORTED_SETTING', `the request body is longer than ${MAX_BODY} characters and was left out`, field);
  return undefined;
}

/** The text a keyword check looks for; one longer than 1,024 characters is left out with an `UNSUPPORTED_SETTING` warning. */
export function importKeywordText(value: string | undefined, scope: ItemScope, field: string): string | undefined {
  if (value === undefined || value.length <= MAX_KEYWORD) return value;
  scope.warn('UNSUPPORTED_SETTING', `the keyword is longer than ${MAX_KEYWORD} characters and was left out`, field);
  return undefined;
}

/** The `VALUE_ADJUSTED` warning for a keyword check without a keyword: only the status code is tested. */
export function warnEmptyKeyword(scope: ItemScope, field: string): void {
  scope.warn('VALUE_ADJUSTED', 'the keyword is empty; the check only tests the status code', field);
}
