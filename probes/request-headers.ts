/** The User-Agent probes send unless the check sets its own. */
export const USER_AGENT = 'svc-monitor';

/** A check's request headers plus svc's User-Agent, unless the check names one in any case. */
export function requestHeaders(configured: Record<string, string>): Record<string, string> {
  const own = Object.keys(configured).some((name) => name.toLowerCase() === 'user-agent');
  return own ? { ...configured } : { 'user-agent': USER_AGENT, ...configured };
}

/**
 * Headers that carry a credential by their name, in lower case: on a redirect to another
 * origin they are dropped whatever their value.
 */
export const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'x-api-key',
  'api-key',
  'apikey',
  'x-auth-token',
  'x-access-token',
  'x-amz-security-token',
  'private-token',
  'x-goog-api-key',
  'x-functions-key',
  'ocp-apim-subscription-key',
]);

/** Whether a text holds one of the secret values substituted into the check. */
export function holdsSecret(text: string, secretValues: readonly string[]): boolean {
  return secretValues.some((value) => value !== '' && text.includes(value));
}

/**
 * The headers that may go on to another origin: without the credential headers (by name, in any
 * case) and without any header whose value holds a secret the check refers to.
 */
export function crossOriginHeaders(headers: Record<string, string>, secretValues: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).filter(([name, value]) => !CREDENTIAL_HEADERS.has(name.toLowerCase()) && !holdsSecret(value, secretValues)),
  );
}
