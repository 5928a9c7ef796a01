import type { ImportSource } from '../../importers/index.js';
import type { UpstreamFailure } from '../../importers/shared/upstream-error.js';
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
 * The answer when a token source's API refused the token or could not be reached: 502
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

/** The base URLs of the token sources' APIs, as the daemon's config holds them. */
export interface TokenApiUrls {
  hostedMonitorApiUrl: string;
  cronMonitorApiUrl: string;
  hostedCheckApiUrl: string;
}

/**
 * The base URL of the API a token source reads (config `import.cron_monitor_api_url`,
 * `import.hosted_check_api_url`, `import.hosted_monitor_api_url`); the other sources read no
 * API, and get the last unused.
 */
export function tokenApiUrl(source: ImportSource, config: TokenApiUrls): string {
  if (source === 'cron-monitor-api') return config.cronMonitorApiUrl;
  if (source === 'hosted-check-api') return config.hostedCheckApiUrl;
  return config.hostedMonitorApiUrl;
}
