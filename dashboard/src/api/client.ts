import { ApiError } from './errors';

export const API_PREFIX = '/api/v1';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  /** JSON body. */
  body?: unknown;
  /** Raw body sent as is (import input), with its content type. */
  raw?: Blob | ArrayBuffer | Uint8Array | string;
  contentType?: string;
  query?: Record<string, string | string[] | undefined>;
  /** Calls made without the session (sign-in itself, the hand-off). */
  anonymous?: boolean;
  /**
   * The call checks a password or code it carries, so its 401 means that credential was wrong,
   * not that the session ended.
   */
  credentialCheck?: boolean;
  /** Answer the body as text, not JSON (an export as CSV). */
  text?: boolean;
}

/** What the client needs from the session: the token, and what to do when the API rejects it. */
export interface ClientHooks {
  token(): string | undefined;
  onUnauthorized(): void;
  onPasswordChangeRequired(): void;
  /** A 403: the role may have changed since the account was read. */
  onForbidden(): void;
}

let hooks: ClientHooks = { token: () => undefined, onUnauthorized: () => {}, onPasswordChangeRequired: () => {}, onForbidden: () => {} };

/** Wires the client to the session store (done once at start-up, avoiding an import cycle). */
export function configureClient(next: ClientHooks): void {
  hooks = next;
}

function urlOf(path: string, query: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) params.append(key, item);
  }
  const qs = params.toString();
  return `${API_PREFIX}${path}${qs ? `?${qs}` : ''}`;
}

/** Calls the API and returns its JSON answer (undefined for 204), or throws an ApiError. */
export async function request<T>(method: Method, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = options.anonymous ? undefined : hooks.token();
  if (token) headers.authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (options.raw !== undefined) {
    body = options.raw as BodyInit;
    headers['content-type'] = options.contentType ?? 'application/octet-stream';
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  let response: Response;
  try {
    response = await fetch(urlOf(path, options.query), { method, headers, body, credentials: 'omit', cache: 'no-store' });
  } catch {
    throw new ApiError(0, 'NETWORK', 'The server could not be reached. Check your connection and try again.');
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (response.ok) return (options.text ? text : parsed) as T;
  throw failure(response, parsed, path, token, options);
}

/** The ApiError of an error answer; the session learns of an ended session, a required password change, a 403. */
function failure(response: Response, parsed: unknown, path: string, token: string | undefined, options: RequestOptions): ApiError {
  const error = (parsed as { error?: { code?: string; message?: string; details?: Record<string, unknown> } } | undefined)?.error;
  const apiError = new ApiError(
    response.status,
    error?.code ?? `HTTP_${response.status}`,
    error?.message ?? `The server answered ${response.status} ${response.statusText}.`,
    error?.details ?? {},
  );
  if (token && apiError.code === 'UNAUTHORIZED' && !options.credentialCheck) hooks.onUnauthorized();
  if (token && apiError.code === 'PASSWORD_CHANGE_REQUIRED') hooks.onPasswordChangeRequired();
  if (token && apiError.code === 'FORBIDDEN' && path !== '/auth/me') hooks.onForbidden();
  return apiError;
}

/**
 * Opens a streaming GET (server-sent events) with the session's bearer token, which
 * `EventSource` cannot send: the response once the server answered 2xx, or an ApiError.
 */
export async function openStream(
  path: string,
  options: { query?: RequestOptions['query']; headers?: Record<string, string>; signal: AbortSignal },
): Promise<Response> {
  const headers: Record<string, string> = { accept: 'text/event-stream', ...options.headers };
  const token = hooks.token();
  if (token) headers.authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(urlOf(path, options.query), { headers, credentials: 'omit', cache: 'no-store', signal: options.signal });
  } catch {
    throw new ApiError(0, 'NETWORK', 'The server could not be reached.');
  }
  if (response.ok && response.body) return response;
  let parsed: unknown;
  try {
    parsed = JSON.parse(await response.text());
  } catch {
    parsed = undefined;
  }
  throw failure(response, parsed, path, token, {});
}

export const get = <T>(path: string, options?: RequestOptions) => request<T>('GET', path, options);
export const post = <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, { ...options, body });
export const put = <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, { ...options, body });
export const patch = <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PATCH', path, { ...options, body });
export const del = <T = void>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options);
