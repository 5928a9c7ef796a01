import type { ItemScope } from './item-scope.js';
import { importUserName } from './user-name.js';

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * A monitored URL without credentials: a user name in it becomes the basic-auth user, and a
 * password becomes a reference to the check's secret in `basicAuthPassword` (the warning says
 * which secret to set; the password itself never carries over). With `keepPassword` false (a
 * check without sign-in) the password is only reported. Text that is not a URL, or a URL
 * without credentials, comes back unchanged.
 */
export function withoutUrlCredentials(
  raw: string | undefined,
  scope: ItemScope,
  field: string,
  config: Record<string, unknown>,
  keepPassword = true,
): string | undefined {
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return raw;
  }
  if (url.username === '' && url.password === '') return raw;
  if (url.password !== '' && keepPassword) {
    config.basicAuthPassword = scope.secretFor('PASSWORD', 'the password in the URL', field);
  } else if (url.password !== '') {
    scope.warn('SECRET_DROPPED', 'the password in the URL was not imported (secrets never carry over, and this check does not send it)', field);
  }
  const user = safeDecode(url.username);
  const userName = importUserName(user, scope, field);
  if (userName !== undefined) config.basicAuthUser = userName;
  url.username = '';
  url.password = '';
  return url.href;
}

/**
 * `text` as it may be shown (an item's name, a label): a URL's `user:password@` taken out, also
 * from a target written without a scheme (`user:password@host:port`). Other text is unchanged.
 */
export function hideUrlCredentials(text: string): string {
  return text.replace(/^((?:[a-z][a-z\d+.-]*:)?\/\/)?[^/?#@\s]*@/i, '$1');
}
