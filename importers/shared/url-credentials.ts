import type { ItemScope } from './item-scope.js';

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * A monitored URL without credentials: a user name in it becomes the basic-auth user, a
 * password is dropped with a warning (secrets never carry over). Text that is not a URL, or a URL
 * without credentials, comes back unchanged.
 */
export function withoutUrlCredentials(raw: string | undefined, scope: ItemScope, field: string, config: Record<string, unknown>): string | undefined {
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return raw;
  }
  if (url.username === '' && url.password === '') return raw;
  if (url.password !== '') {
    scope.warn('SECRET_DROPPED', 'the password in the URL was not imported (secrets never carry over): re-enter it', field);
  }
  const user = safeDecode(url.username);
  if (user !== '' && user.length <= 255) config.basicAuthUser = user;
  url.username = '';
  url.password = '';
  return url.href;
}
