// The adapter that exchanges an API token for the monitors and heartbeats of the hosted
// monitoring API, page by page, and returns them as plain data for the pure converter. The
// requests go through the token API exchange (importers/shared/token-api.ts): the token goes
// into one header of requests to the configured origin and nowhere else.
import { isRecord } from '../converter.js';
import { withTokenApi, type TokenApi, type TokenFetchOptions, type TokenSource } from '../shared/token-api.js';
import type { HostedMonitorData } from './hosted-data.js';
import { HostedApiError } from './upstream-error.js';

/** How to reach the hosted monitoring API (the daemon reads its base URL from `SVC_IMPORT_HOSTED_MONITOR_API_URL`). */
export interface FetchHostedMonitorsOptions extends TokenFetchOptions {
  /** The API token: sent as `Authorization: Bearer <token>` to `baseUrl`'s origin only. */
  readonly token: string;
  /** The most pages followed per list. Default 1000. */
  readonly maxPages?: number;
}

const HOSTED_MONITOR_API: TokenSource = {
  apiName: 'the hosted monitoring API',
  credentialName: 'the token',
  refusedHint: 'check that it is a valid API token of the team to import from',
  notACredential: 'expected an API token of the hosted monitoring service: one word of printable characters',
  authHeaders: (token) => ({ authorization: `Bearer ${token}` }),
};

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
  const maxPages = options.maxPages ?? 1000;
  return withTokenApi(HOSTED_MONITOR_API, options.token, options, async (api) => {
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
  });
}
