// The only network code of the importers: the adapter that exchanges an API token for the
// monitors and heartbeats of the hosted monitoring API, page by page, and returns them as
// plain data for the pure converter. The token goes into one header of requests to the
// configured origin and nowhere else: it is never logged, stored or put in an error.
import { Agent, request, type Dispatcher } from 'undici';
import { ImportInputError, isRecord } from '../converter.js';
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
  readonly dispatcher?: Dispatcher;
}

const MAX_PAGE_BYTES = 16 * 1024 * 1024;
const PAGE_SIZE = 250;
const TOKEN = /^[\x21-\x7e]{1,4096}$/;

/** The API's lists: path, and whether the list is optional (an error reading it leaves it empty). */
const LISTS = {
  monitors: ['/api/v2/monitors', false],
  heartbeats: ['/api/v2/heartbeats', false],
  monitorGroups: ['/api/v2/monitor-groups', true],
  heartbeatGroups: ['/api/v2/heartbeat-groups', true],
} as const;

interface Exchange {
  readonly origin: string;
  readonly authorization: string;
  readonly dispatcher: Dispatcher;
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
  readonly maxPages: number;
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

function errorCode(error: unknown): string | undefined {
  if (!isRecord(error) && !(error instanceof Error)) return undefined;
  const record = error as { code?: unknown; cause?: unknown; errors?: unknown; name?: unknown };
  if (typeof record.code === 'string') return record.code;
  if (Array.isArray(record.errors) && record.errors.length > 0) return errorCode(record.errors[0]);
  if (record.cause !== undefined) return errorCode(record.cause);
  return typeof record.name === 'string' ? record.name : undefined;
}

// Only the origin and a code: an undici error may carry request details, so none is passed on.
function networkError(error: unknown, exchange: Exchange): HostedApiError {
  const code = errorCode(error);
  if (exchange.signal.aborted || (code !== undefined && (TIMEOUT_CODES.has(code) || code === 'AbortError' || code === 'TimeoutError'))) {
    return new HostedApiError('timeout', `the hosted monitoring API at ${exchange.origin} did not answer in time`);
  }
  const detail = code !== undefined && (NETWORK_CODES.has(code) || /^E[A-Z]+$/.test(code)) ? ` (${code})` : '';
  return new HostedApiError('unreachable', `the hosted monitoring API at ${exchange.origin} cannot be reached${detail}`);
}

async function readBody(body: Dispatcher.ResponseData['body'], exchange: Exchange): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_PAGE_BYTES) {
      body.destroy();
      throw new HostedApiError('bad-response', `the hosted monitoring API at ${exchange.origin} sent a page larger than 16 MiB`);
    }
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new HostedApiError('bad-response', `the hosted monitoring API at ${exchange.origin} answered with something other than JSON`);
  }
}

function statusError(status: number, headers: Record<string, unknown>, exchange: Exchange): HostedApiError {
  const api = `the hosted monitoring API at ${exchange.origin}`;
  if (status === 401 || status === 403) {
    const message = `${api} refused the token (HTTP ${status}): check that it is a valid API token of the team to import from`;
    return new HostedApiError('token-refused', message, status);
  }
  if (status === 429) {
    const retry = Number(headers['retry-after']);
    const seconds = Number.isFinite(retry) && retry >= 0 ? Math.ceil(retry) : undefined;
    const when = seconds === undefined ? 'later' : `in ${seconds} s`;
    return new HostedApiError('rate-limited', `${api} is rate-limiting requests (HTTP 429): try again ${when}`, status, seconds);
  }
  return new HostedApiError('bad-status', `${api} answered HTTP ${status}`, status);
}

async function getPage(url: URL, exchange: Exchange): Promise<unknown> {
  let response: Dispatcher.ResponseData;
  try {
    response = await request(url, {
      method: 'GET',
      headers: { authorization: exchange.authorization, accept: 'application/json', 'user-agent': 'svc-import' },
      dispatcher: exchange.dispatcher,
      signal: exchange.signal,
      headersTimeout: exchange.timeoutMs,
      bodyTimeout: exchange.timeoutMs,
    });
  } catch (error) {
    throw networkError(error, exchange);
  }
  if (response.statusCode < 200 || response.statusCode > 299) {
    await response.body.dump().catch(() => undefined);
    throw statusError(response.statusCode, response.headers, exchange);
  }
  try {
    return await readBody(response.body, exchange);
  } catch (error) {
    throw error instanceof HostedApiError ? error : networkError(error, exchange);
  }
}

/** The next page to read, refusing any other origin: the token must never be sent elsewhere. */
function nextPage(next: unknown, current: URL, exchange: Exchange): URL | undefined {
  if (next === undefined || next === null || next === '') return undefined;
  let url: URL | undefined;
  try {
    url = typeof next === 'string' ? new URL(next, current) : undefined;
  } catch {
    url = undefined;
  }
  if (url === undefined) {
    throw new HostedApiError('bad-response', `the hosted monitoring API at ${exchange.origin} sent a next-page link that is not a URL`);
  }
  if (url.origin !== exchange.origin) {
    throw new HostedApiError(
      'cross-origin',
      `the hosted monitoring API at ${exchange.origin} sent a next-page link to another origin (${url.origin}); ` +
        'it was not followed, so that the token is only sent to the configured API',
    );
  }
  return url;
}

async function fetchList(path: string, base: URL, exchange: Exchange): Promise<unknown[]> {
  const items: unknown[] = [];
  const seen = new Set<string>();
  let url: URL | undefined = new URL(`${base.pathname.replace(/\/+$/, '')}${path}?per_page=${PAGE_SIZE}`, base);
  while (url !== undefined) {
    if (seen.has(url.href) || seen.size >= exchange.maxPages) {
      const message = `the hosted monitoring API at ${exchange.origin} kept sending next pages of ${path}; stopped after ${seen.size}`;
      throw new HostedApiError('bad-response', message);
    }
    seen.add(url.href);
    const page = await getPage(url, exchange);
    if (!isRecord(page) || !Array.isArray(page.data)) {
      const message = `the hosted monitoring API at ${exchange.origin} answered ${path} with something other than a JSON:API list`;
      throw new HostedApiError('bad-response', message);
    }
    items.push(...page.data);
    url = nextPage(isRecord(page.pagination) ? page.pagination.next : undefined, url, exchange);
  }
  return items;
}

function baseUrlOf(baseUrl: string): URL {
  let url: URL | undefined;
  try {
    url = new URL(baseUrl);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.username !== '' || url.password !== '') {
    throw new HostedApiError('unreachable', 'the configured base URL of the hosted monitoring API is not an http(s) URL without credentials');
  }
  return url;
}

/**
 * Reads every monitor and heartbeat (and the group names) of the account the token belongs
 * to, following `pagination.next` until it is null. Throws ImportInputError when the token
 * cannot be a token, and HostedApiError (502 `UPSTREAM_FAILED`) when the API refuses the token,
 * rate-limits, cannot be reached, times out, or answers something unreadable.
 */
export async function fetchHostedMonitors(options: FetchHostedMonitorsOptions): Promise<HostedMonitorData> {
  if (!TOKEN.test(options.token)) {
    throw new ImportInputError('expected an API token of the hosted monitoring service: one word of printable characters');
  }
  const base = baseUrlOf(options.baseUrl);
  const timeoutMs = options.requestTimeoutMs ?? 15_000;
  const signals = [AbortSignal.timeout(options.totalTimeoutMs ?? 120_000), ...(options.signal ? [options.signal] : [])];
  const ownDispatcher = options.dispatcher === undefined ? new Agent({ connect: { timeout: timeoutMs } }) : undefined;
  const exchange: Exchange = {
    origin: base.origin,
    authorization: `Bearer ${options.token}`,
    dispatcher: options.dispatcher ?? ownDispatcher!,
    signal: AbortSignal.any(signals),
    timeoutMs,
    maxPages: options.maxPages ?? 1000,
  };
  try {
    const optional = async (path: string) => {
      try {
        return await fetchList(path, base, exchange);
      } catch (error) {
        // Group names only label the checks; a list the account cannot read is no reason to fail.
        if (error instanceof HostedApiError && error.reason === 'bad-status') return [];
        throw error;
      }
    };
    const monitors = await fetchList(LISTS.monitors[0], base, exchange);
    const heartbeats = await fetchList(LISTS.heartbeats[0], base, exchange);
    const monitorGroups = await optional(LISTS.monitorGroups[0]);
    const heartbeatGroups = await optional(LISTS.heartbeatGroups[0]);
    return { monitors, heartbeats, monitorGroups, heartbeatGroups };
  } finally {
    await ownDispatcher?.close().catch(() => undefined);
  }
}
