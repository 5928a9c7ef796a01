/**
 * Reads `#token=` from the address once and removes it, so the secret stays out of history and
 * of any link copied from the address bar. (Links carry it in the fragment, which browsers never
 * send to a server or in a Referer.)
 */
export function takeTokenFromAddress(): string | undefined {
  const fromHash = new URLSearchParams(window.location.hash.slice(1)).get('token');
  const fromQuery = new URLSearchParams(window.location.search).get('token');
  const token = fromHash ?? fromQuery ?? undefined;
  if (token) window.history.replaceState(null, '', window.location.pathname);
  return token;
}
