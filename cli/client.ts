import { CliError, EXIT } from './errors.js';
import { PERSONAL_TOKEN_PREFIX } from '../contract/access.js';

/** Personal access tokens start with this; sessions do not. */
export { PERSONAL_TOKEN_PREFIX };

/** The error body every API error has. */
interface ApiErrorBody {
  error?: { code?: string; message?: string; details?: { issues?: { path: string; message: string }[] } };
}

/**
 * An API error, with the code the daemon gave. A 400 VALIDATION_FAILED ends with the usage exit
 * code (2): what the CLI sends comes from its flags and arguments, so a value the daemon refuses
 * is a bad flag value, exactly as if the CLI had caught it. A command that sends a file's
 * content instead (svc checks apply) reports the problems itself, as a failure (1).
 */
export class ApiError extends CliError {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message, status === 400 && code === 'VALIDATION_FAILED' ? EXIT.usage : EXIT.failure);
  }
}

export interface RequestOptions {
  body?: unknown;
  /** Raw bytes sent as-is (import). */
  raw?: Uint8Array | string;
  query?: Record<string, string | string[] | undefined>;
  headers?: Record<string, string>;
}

/** A small client of the daemon's HTTP API. */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly token?: string,
  ) {}

  async request<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const url = new URL(`/api/v1${path}`, this.baseUrl);
    for (const [key, value] of Object.entries(options.query ?? {})) {
      for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) url.searchParams.append(key, v);
    }
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    let body: string | Uint8Array | undefined;
    if (options.raw !== undefined) {
      body = options.raw;
      headers['content-type'] ??= 'application/octet-stream';
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    let response: Response;
    try {
      response = await fetch(url, { method, headers, body });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      throw new CliError(`cannot reach the svc daemon at ${this.baseUrl}${cause ? ` (${cause})` : ''}; is it running? (svc daemon, or --url)`);
    }
    if (response.status === 204) return undefined as T;
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      throw new CliError(`the daemon at ${this.baseUrl} answered ${response.status} with something that is not JSON; is --url right?`);
    }
    if (!response.ok) throw toApiError(response.status, parsed as ApiErrorBody);
    return parsed as T;
  }

  /**
   * A streaming GET (server-sent events): the response once the daemon answered 2xx, its body
   * still to be read; an API error otherwise. `signal` ends it.
   */
  async stream(
    path: string,
    options: { query?: Record<string, string | undefined>; headers?: Record<string, string>; signal?: AbortSignal } = {},
  ): Promise<Response> {
    const url = new URL(`/api/v1${path}`, this.baseUrl);
    for (const [key, value] of Object.entries(options.query ?? {})) if (value !== undefined) url.searchParams.set(key, value);
    const headers: Record<string, string> = { accept: 'text/event-stream', ...options.headers };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    let response: Response;
    try {
      response = await fetch(url, { headers, signal: options.signal });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      throw new CliError(`cannot reach the svc daemon at ${this.baseUrl}${cause ? ` (${cause})` : ''}; is it running? (svc daemon, or --url)`);
    }
    if (response.ok) return response;
    let parsed: unknown;
    try {
      parsed = JSON.parse(await response.text());
    } catch {
      parsed = undefined;
    }
    throw toApiError(response.status, parsed as ApiErrorBody);
  }

  get = <T = unknown>(path: string, options?: RequestOptions) => this.request<T>('GET', path, options);
  post = <T = unknown>(path: string, body?: unknown, options?: RequestOptions) => this.request<T>('POST', path, { ...options, body });
}

function toApiError(status: number, body: ApiErrorBody): ApiError {
  const code = body?.error?.code ?? `HTTP_${status}`;
  let message = body?.error?.message ?? `the daemon answered ${status}`;
  const issues = body?.error?.details?.issues;
  if (issues && issues.length > 1) message += ` ${issues.map((i) => `${i.path || '(body)'}: ${i.message}`).join('; ')}`;
  if (code === 'UNAUTHORIZED' && !/sign in/i.test(message)) message += ' (sign in with: svc login)';
  if (code === 'PASSWORD_CHANGE_REQUIRED') message = 'the built-in password must be changed first: svc login changes it, or the dashboard';
  return new ApiError(status, code, message);
}
