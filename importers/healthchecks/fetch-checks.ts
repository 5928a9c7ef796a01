// The adapter that exchanges an API key of the cron monitor for its checks listing (Management
// API v3, https://healthchecks.io/docs/api/: `GET /api/v3/checks/` with the key in the
// `X-Api-Key` header, answered `{"checks": [...]}`), and returns it as plain data for the pure
// converter. The key goes into that one header, to the configured origin only.
import { isRecord } from '../converter.js';
import { withTokenApi, type TokenFetchOptions, type TokenSource } from '../shared/token-api.js';
import { HostedApiError } from '../shared/upstream-error.js';

/** Where the cron monitor's API answers unless configured otherwise (`SVC_IMPORT_CRON_MONITOR_API_URL`). */
export const DEFAULT_CRON_MONITOR_API_URL = 'https://healthchecks.io';

/** What the adapter fetched and the converter reads: the listing's checks, as the API sent them. */
export interface CronMonitorChecks {
  readonly checks: readonly unknown[];
}

/** How to reach the cron monitor's Management API (the whole exchange's default limit is 60 s). */
export interface FetchCronMonitorChecksOptions extends TokenFetchOptions {
  /** The project's API key (read-write or read-only): sent as `X-Api-Key` to `baseUrl`'s origin only. */
  readonly apiKey: string;
}

const CRON_MONITOR_API: TokenSource = {
  apiName: "the cron monitor's Management API",
  credentialName: 'the API key',
  refusedHint: "check that it is the API key of the project to import from (the project's Settings, API Access)",
  notACredential: "expected an API key of the cron monitor's project: one word of printable characters",
  authHeaders: (apiKey) => ({ 'x-api-key': apiKey }),
  totalTimeoutMs: 60_000,
};

const LISTING_PATH = '/api/v3/checks/';

/**
 * Reads the checks of the project the API key belongs to. A read-only key lists them without
 * their ping URLs (the converter warns that pings need the full key). Throws ImportInputError
 * when the key cannot be a key, and HostedApiError (502 `UPSTREAM_FAILED`) when the API refuses
 * the key, rate-limits, cannot be reached, times out, or answers something unreadable.
 */
export async function fetchCronMonitorChecks(options: FetchCronMonitorChecksOptions): Promise<CronMonitorChecks> {
  return withTokenApi(CRON_MONITOR_API, options.apiKey, options, async (api) => {
    const listing = await api.getJson(api.url(LISTING_PATH));
    if (!isRecord(listing) || !Array.isArray(listing.checks)) {
      throw new HostedApiError('bad-response', `${api.api} answered ${LISTING_PATH} with something other than a checks listing`);
    }
    return { checks: listing.checks };
  });
}
