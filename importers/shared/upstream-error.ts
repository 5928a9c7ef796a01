/** Why the API of a token source (the hosted monitoring API, the cron monitor's Management API) could not be read. */
export type UpstreamFailure = 'token-refused' | 'rate-limited' | 'unreachable' | 'timeout' | 'bad-status' | 'bad-response' | 'cross-origin';

/**
 * The API of a token source failed or refused the token (or API key). The daemon answers it with 502
 * `UPSTREAM_FAILED` and the message as is: messages name the API's origin and the HTTP status,
 * never the token or key, the request headers or a response body.
 */
export class HostedApiError extends Error {
  /** The API error code this error maps to. */
  readonly code = 'UPSTREAM_FAILED' as const;

  constructor(
    readonly reason: UpstreamFailure,
    message: string,
    /** The upstream HTTP status, when one was received. */
    readonly status?: number,
    /** Seconds to wait before retrying, from a 429's Retry-After header. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'HostedApiError';
  }
}
