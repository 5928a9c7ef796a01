/** The User-Agent probes send unless the check sets its own. */
export const USER_AGENT = 'svc-monitor';

/** A check's request headers plus svc's User-Agent, unless the check names one in any case. */
export function requestHeaders(configured: Record<string, string>): Record<string, string> {
  const own = Object.keys(configured).some((name) => name.toLowerCase() === 'user-agent');
  return own ? { ...configured } : { 'user-agent': USER_AGENT, ...configured };
}
