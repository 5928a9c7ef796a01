// The only network code of the importers: GET requests for JSON to the API of a token source
// (the hosted monitoring API, the cron monitor's Management API, the hosted check API), with the caller's token or
// API key in one header, to the configured origin only. The credential is never logged, stored
// or put in an error: errors name the API's origin and the HTTP status, nothing else.
import { Agent, request, type Dispatcher } from 'undici';
import { ImportInputError } from './import-input-error.js';
import { isRecord } from './input-text.js';
import { HostedApiError } from './upstream-error.js';

/** What a caller of a token source's fetch sets: where its API answers, how long to wait, how to cancel. */
export interface TokenFetchOptions {
  /** The API's base URL; the credential goes to its origin only. */
  readonly baseUrl: string;
  /** Connecting, waiting for the headers and for each part of the body, per request. Default 15 s. */
  readonly requestTimeoutMs?: number;
  /** The whole exchange, every request. Default 120 s unless the source says otherwise. */
  readonly totalTimeoutMs?: number;
  /** Cancels the exchange. */
  readonly signal?: AbortSignal;
  /** The undici dispatcher to use instead of a private one (proxies, tests). */
  readonly dispatcher?: Dispatcher;
}

/** How to reach one token API. */
export interface TokenApiOptions extends TokenFetchOptions {
  /** The API as messages name it: `the hosted monitoring API`; `at <origin>` is added. */
  readonly apiName: string;
  /** The credential as messages name it: `the token`, `the API key`. */
  readonly credentialName: string;
  /** What to check when the credential is refused, after the status. */
  readonly refusedHint: string;
  /** The header that carries the credential, e.g. `{ authorization: 'Bearer …' }`. */
  readonly authHeaders: Readonly<Record<string, string>>;
  /** The largest answer read, per request. Default 16 MiB. */
  readonly maxBytes?: number;
}

/** How one token source's API is reached and named. */
export interface TokenSource extends Pick<TokenApiOptions, 'apiName' | 'credentialName' | 'refusedHint'> {
  /** The ImportInputError's message when the credential cannot be one. */
  readonly notACredential: string;
  /** The header that carries the credential. */
  authHeaders(credential: string): Record<string, string>;
  /** The whole exchange's default limit, when not 120 s. */
  readonly totalTimeoutMs?: number;
}

/** One exchange with a token API: GETs for JSON, then close. */
export interface TokenApi {
  /** The base URL, checked. */
  readonly base: URL;
  /** The API at its origin, for messages: `the hosted monitoring API at https://…`. */
  readonly api: string;
  readonly origin: string;
  /** GETs `url` (on the base's origin) and reads its JSON answer; throws HostedApiError otherwise. */
  getJson(url: URL): Promise<unknown>;
  /** `path` below the base URL's path, with `query`. */
  url(path: string, query?: string): URL;
  close(): Promise<void>;
}

/** Something that can be a token or API key: one word of printable characters. */
export const TOKEN_SHAPE = /^[\x21-\x7e]{1,4096}$/;

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

interface Exchange {
  readonly api: string;
  readonly origin: string;
  readonly options: TokenApiOptions;
  readonly dispatcher: Dispatcher;
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
  readonly maxBytes: number;
}

function errorCode(error: unknown): string | undefined {
  if (!isRecord(error) && !(error instanceof Error)) return undefined;
  const record = error as { code?: unknown; cause?: unknown; errors?: unknown; name?: unknown };
  if (typeof record.code === 'string') return record.code;
  if (Array.isArray(record.errors) && record.errors.length > 0) return errorCode(record.errors[0]);
  if (record.cause !== undefined) return errorCode(record.cause);
  return typeof record.name === 'string' ? record.name : undefined;
}

/** A fault of this code rather than of the exchange: a language error without a system or library code. */
const isProgrammingError = (error: unknown) =>
  (error instanceof TypeError || error instanceof RangeError || error instanceof ReferenceError || error instanceof SyntaxError) &&
  typeof (error as { code?: unknown }).code !== 'string';

// Only the origin and a code: an undici error may carry request details, so none is passed on.
// A programming error is not the API's fault and goes on as it is (an internal error).
function networkError(error: unknown, exchange: Exchange): HostedApiError {
  if (!exchange.signal.aborted && isProgrammingError(error)) throw error;
  const code = errorCode(error);
  if (exchange.signal.aborted || (code !== undefined && (TIMEOUT_CODES.has(code) || code === 'AbortError' || code === 'TimeoutError'))) {
    return new HostedApiError('timeout', `${exchange.api} did not answer in time`);
  }
  const detail = code !== undefined && (NETWORK_CODES.has(code) || /^E[A-Z]+$/.test(code)) ? ` (${code})` : '';
  return new HostedApiError('unreachable', `${exchange.api} cannot be reached${detail}`);
}

const sizeText = (bytes: number) => (bytes >= 1024 * 1024 ? `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB` : `${Math.ceil(bytes / 1024)} KiB`);

async function readBody(body: Dispatcher.ResponseData['body'], exchange: Exchange): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > exchange.maxBytes) {
      body.destroy();
      throw new HostedApiError('bad-response', `${exchange.api} sent a page larger than ${sizeText(exchange.maxBytes)}`);
    }
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new HostedApiError('bad-response', `${exchange.api} answered with something other than JSON`);
  }
}

function statusError(status: number, headers: Record<string, unknown>, exchange: Exchange): HostedApiError {
  const { api } = exchange;
  if (status === 401 || status === 403) {
    const message = `${api} refused ${exchange.options.credentialName} (HTTP ${status}): ${exchange.options.refusedHint}`;
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

async function getJson(url: URL, exchange: Exchange): Promise<unknown> {
  // The credential goes to the configured origin only.
  if (url.origin !== exchange.origin) throw new HostedApiError('cross-origin', `${exchange.api} was asked for a URL of another origin (${url.origin})`);
  let response: Dispatcher.ResponseData;
  try {
    response = await request(url, {
      method: 'GET',
      headers: { ...exchange.options.authHeaders, accept: 'application/json', 'user-agent': 'svc-import' },
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

function baseUrlOf(baseUrl: string, apiName: string): URL {
  let url: URL | undefined;
  try {
    url = new URL(baseUrl);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.username !== '' || url.password !== '') {
    throw new HostedApiError('unreachable', `the configured base URL of ${apiName} is not an http(s) URL without credentials`);
  }
  return url;
}

/**
 * Opens an exchange with a token API: checks the base URL (HostedApiError `unreachable` when it
 * is not an http(s) URL without credentials) and starts the total deadline. Close it when done.
 */
export function openTokenApi(options: TokenApiOptions): TokenApi {
  const base = baseUrlOf(options.baseUrl, options.apiName);
  const timeoutMs = options.requestTimeoutMs ?? 15_000;
  const signals = [AbortSignal.timeout(options.totalTimeoutMs ?? 120_000), ...(options.signal ? [options.signal] : [])];
  const ownDispatcher = options.dispatcher === undefined ? new Agent({ connect: { timeout: timeoutMs } }) : undefined;
  const exchange: Exchange = {
    api: `${options.apiName} at ${base.origin}`,
    origin: base.origin,
    options,
    dispatcher: options.dispatcher ?? ownDispatcher!,
    signal: AbortSignal.any(signals),
    timeoutMs,
    maxBytes: options.maxBytes ?? 16 * 1024 * 1024,
  };
  return {
    base,
    api: exchange.api,
    origin: exchange.origin,
    getJson: (url) => getJson(url, exchange),
    url: (path, query) => new URL(`${base.pathname.replace(/\/+$/, '')}${path}${query ? `?${query}` : ''}`, base),
    close: async () => {
      await ownDispatcher?.close().catch(() => undefined);
    },
  };
}

/**
 * Runs `use` with an exchange with a token source's API, closed after it: checks the
 * credential's shape first (ImportInputError), then the base URL (HostedApiError).
 */
export async function withTokenApi<T>(source: TokenSource, credential: string, options: TokenFetchOptions, use: (api: TokenApi) => Promise<T>): Promise<T> {
  if (!TOKEN_SHAPE.test(credential)) throw new ImportInputError(source.notACredential);
  const api = openTokenApi({
    ...options,
    apiName: source.apiName,
    credentialName: source.credentialName,
    refusedHint: source.refusedHint,
    authHeaders: source.authHeaders(credential),
    totalTimeoutMs: options.totalTimeoutMs ?? source.totalTimeoutMs,
  });
  try {
    return await use(api);
  } finally {
    await api.close();
  }
}
