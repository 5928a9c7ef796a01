import type { UpstreamFailure } from '../../importers/betterstack/upstream-error.js';
import { AppError } from '../errors.js';

/** What a HostedApiError says, as it crosses from the conversion worker. */
export interface UpstreamProblem {
  reason: UpstreamFailure;
  message: string;
  status?: number;
  retryAfterSeconds?: number;
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * The answer when the hosted monitoring API refused the token or could not be reached: 502
 * UPSTREAM_FAILED saying which, with the upstream status and a 429's Retry-After passed on.
 * The message names the API's origin and status, never the token (see HostedApiError).
 */
export function upstreamFailed(problem: UpstreamProblem): AppError {
  const retry = problem.retryAfterSeconds;
  return new AppError(
    'UPSTREAM_FAILED',
    `${capitalised(problem.message)}.`.replace(/\.\.$/, '.'),
    { reason: problem.reason, ...(problem.status ? { upstreamStatus: problem.status } : {}), ...(retry !== undefined ? { retryAfterSeconds: retry } : {}) },
    retry !== undefined ? { 'Retry-After': String(retry) } : undefined,
  );
}
