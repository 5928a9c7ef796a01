// The adapter that exchanges an API token for the monitors and heartbeats of the hosted
// monitoring API, page by page, and returns them as plain data for the pure converter. The
// requests go through the token API exchange (importers/shared/token-api.ts): the token goes
// into one header of requests to the configured origin and nowhere else.
import { ImportInputError, isRecord } from '../converter.js';
import { openTokenApi, TOKEN_SHAPE, type TokenApi, type TokenApiOptions } from '../shared/token-api.js';
import type { HostedMonitorData } from './hosted-data.js';
import { HostedApiError } from './upstream-error.js';

/** How to reach the hosted monitoring API. */
export interface FetchHostedMonitorsOptions {
  /** The API token: sent as `Authorization: Bearer <token>` to `baseUrl`'s origin only. */
  readonly token: string;
  /** The API's base URL, e.g. `https://uptime.betterstack.com` (the daemon reads `SVC_IMPORT_HOSTED_MONITOR_API_URL`). */
  readonly baseUrl: string;
  /** Connecting, waiting for the headers and for each part of the body, per request. Default 15 s. */
  readonly requestTimeoutMs?: number;
  /** The whole exchange, all pages of all lists. Default 120 s. */
  readonly totalTimeoutMs?: number;
  /** The most pages followed per list. Default 1000. */
  readonly maxPages?: number;
  /** Cancels the exchange. */
  readonly signal?: AbortSignal;
  /** The undici dispatcher to use instead of a private one (proxies, tests). */
  readonly dispatcher?: TokenApiOptions['dispatcher'];
}

const PAGE_SIZE = 250;

/** The API's lists: path, and whether the list is optional (an error reading it leaves it empty). */
const LISTS = {
  monitors: ['/api/v2/monitors', false],
  heartbeats: ['/api/v2/heartbeats', false],
  monitorGroups: ['/api/v2/monitor-groups', true],
  heartbeatGroups: ['/api/v2/heartbeat-groups', true],
} as const;

/** The next page to read, refusing any other origin: the token must never be sent elsewhere. */
function nextPage(next: unknown, current: URL, api: TokenApi): URL | undefined {
  if (next === undefined || next === null || next === '') return undefined;
  let url: URL | undefined;
  try {
    url = typeof next === 'string' ? new URL(next, current) : undefined;
  } catch {
    url = undefined;
  }
  if (url === undefined) {
    throw new HostedApiError('bad-response', `${api.api} sent a next-page link that is not a URL`);
  }
  if (url.origin !== api.origin) {
    throw new HostedApiError(
      'cross-origin',
      `${api.api} sent a next-page link to another origin (${url.origin}); it was not followed, so that the token is only sent to the configured API`,
    );
  }
  return url;
}

async function fetchList(path: string, api: TokenApi, maxPages: number): Promise<unknown[]> {
  const items: unknown[] = [];
  const seen = new Set<string>();
  let url: URL | undefined = api.url(path, `per_page=${PAGE_SIZE}`);
  while (url !== undefined) {
    if (seen.has(url.href) || seen.size >= maxPages) {
      throw new HostedApiError('bad-response', `${api.api} kept sending next pages of ${path}; stopped after ${seen.size}`);
    }
    seen.add(url.href);
    const page = await api.getJson(url);
    if (!isRecord(page) || !Array.isArray(page.data)) {
      throw new HostedApiError('bad-response', `${api.api} answered ${path} with something other than a JSON:API list`);
    }
    items.push(...page.data);
    url = nextPage(isRecord(page.pagination) ? page.pagination.next : undefined, url, api);
  }
  return items;
}

/**
 * Reads every monitor and heartbeat (and the group names) of the account the token belongs
 * to, following `pagination.next` until it is null. Throws ImportInputError when the token
 * cannot be a token, and HostedApiError (502 `UPSTREAM_FAILED`) when the API refuses the token,
 * rate-limits, cannot be reached, times out, or answers something unreadable.
 */
export async function fetchHostedMonitors(options: FetchHostedMonitorsOptions): Promise<HostedMonitorData> {
  if (!TOKEN_SHAPE.test(options.token)) {
    throw new ImportInputError('expected an API token of the hosted monitoring service: one word of printable characters');
  }
  const api = openTokenApi({
    baseUrl: options.baseUrl,
    apiName: 'the hosted monitoring API',
    credentialName: 'the token',
    refusedHint: 'check that it is a valid API token of the team to import from',
    authHeaders: { authorization: `Bearer ${options.token}` },
    requestTimeoutMs: options.requestTimeoutMs,
    totalTimeoutMs: options.totalTimeoutMs,
    signal: options.signal,
    dispatcher: options.dispatcher,
  });
  const maxPages = options.maxPages ?? 1000;
  try {
    const optional = async (path: string) => {
      try {
        return await fetchList(path, api, maxPages);
      } catch (error) {
        // Group names only label the checks; a list the account cannot read is no reason to fail.
        if (error instanceof HostedApiError && error.reason === 'bad-status') return [];
        throw error;
      }
    };
    const monitors = await fetchList(LISTS.monitors[0], api, maxPages);
    const heartbeats = await fetchList(LISTS.heartbeats[0], api, maxPages);
    const monitorGroups = await optional(LISTS.monitorGroups[0]);
    const heartbeatGroups = await optional(LISTS.heartbeatGroups[0]);
    return { monitors, heartbeats, monitorGroups, heartbeatGroups };
  } finally {
    await api.close();
  }
}
