// The adapter that exchanges an API token of the hosted check service for its checks (API 3.1,
// https://docs.pingdom.com/api/: `GET /api/3.1/checks` with `Authorization: Bearer <token>`,
// answered `{"checks": [...], "counts": {...}}`, then `GET /api/3.1/checks/{checkid}` per check,
// answered `{"check": {...}}`, for the settings only a detail holds: path, port, encryption and
// the type's settings). The token goes into that one header, to the configured origin only.
import { isRecord } from '../converter.js';
import { withTokenApi, type TokenApi, type TokenFetchOptions, type TokenSource } from '../shared/token-api.js';
import { HostedApiError } from '../shared/upstream-error.js';
import type { HostedCheckData } from './read-checks.js';

/** Where the hosted check API answers unless configured otherwise (`SVC_IMPORT_HOSTED_CHECK_API_URL`). */
export const DEFAULT_HOSTED_CHECK_API_URL = 'https://api.pingdom.com';

/** How to reach the hosted check API (the whole exchange covers the listing and every detail). */
export interface FetchHostedChecksOptions extends TokenFetchOptions {
  /** The API token: sent as `Authorization: Bearer <token>` to `baseUrl`'s origin only. */
  readonly token: string;
  /** Details read at once. Default 4. */
  readonly concurrency?: number;
}

const HOSTED_CHECK_API: TokenSource = {
  apiName: 'the hosted check API',
  credentialName: 'the token',
  refusedHint: 'check that it is a valid API token (read access) of the account to import from',
  notACredential: 'expected an API token of the hosted check service: one word of printable characters',
  authHeaders: (token) => ({ authorization: `Bearer ${token}` }),
};

/** The API's largest page (the `limit` parameter of GET /checks). */
const PAGE_SIZE = 25_000;
const MAX_PAGES = 40;
const CHECKS_PATH = '/api/3.1/checks';

async function fetchListing(api: TokenApi): Promise<unknown[]> {
  const checks: unknown[] = [];
  for (let page = 0; ; page++) {
    if (page >= MAX_PAGES) throw new HostedApiError('bad-response', `${api.api} kept sending full pages of ${CHECKS_PATH}; stopped after ${page}`);
    const answer = await api.getJson(api.url(CHECKS_PATH, `include_tags=true&limit=${PAGE_SIZE}&offset=${page * PAGE_SIZE}`));
    if (!isRecord(answer) || !Array.isArray(answer.checks)) {
      throw new HostedApiError('bad-response', `${api.api} answered ${CHECKS_PATH} with something other than a checks listing`);
    }
    checks.push(...answer.checks);
    if (answer.checks.length < PAGE_SIZE) return checks;
  }
}

/** The detail of one listed check, or undefined when it is gone (deleted since the listing: 404). */
async function fetchDetail(api: TokenApi, id: string): Promise<unknown> {
  try {
    const answer = await api.getJson(api.url(`${CHECKS_PATH}/${encodeURIComponent(id)}`));
    if (!isRecord(answer) || !isRecord(answer.check)) {
      throw new HostedApiError('bad-response', `${api.api} answered ${CHECKS_PATH}/{checkid} with something other than a check`);
    }
    return answer;
  } catch (error) {
    if (error instanceof HostedApiError && error.status === 404) return undefined;
    throw error;
  }
}

const listedId = (check: unknown) =>
  isRecord(check) && (typeof check.id === 'number' || typeof check.id === 'string') && /^\d{1,20}$/.test(String(check.id)) ? String(check.id) : undefined;

/**
 * Reads every check of the account the token belongs to, with its detail. Throws
 * ImportInputError when the token cannot be a token, and HostedApiError (502
 * `UPSTREAM_FAILED`) when the API refuses the token, rate-limits, cannot be reached, times
 * out, or answers something unreadable. A check deleted between the listing and its detail
 * keeps its listing entry.
 */
export async function fetchHostedChecks(options: FetchHostedChecksOptions): Promise<HostedCheckData> {
  return withTokenApi(HOSTED_CHECK_API, options.token, options, async (api) => {
    const checks = await fetchListing(api);
    const ids = checks.map(listedId).filter((id): id is string => id !== undefined);
    const details: unknown[] = new Array(ids.length);
    let next = 0;
    const worker = async () => {
      while (next < ids.length) {
        const index = next++;
        details[index] = await fetchDetail(api, ids[index]);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 4, ids.length)) }, worker));
    return { checks, details: details.filter((detail) => detail !== undefined) };
  });
}
