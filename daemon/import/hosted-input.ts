import { fetchWithToken, type HostedMonitorData } from '../../importers/index.js';
import { HostedApiError } from '../../importers/hosted-monitor-api/index.js';
import type { AppDeps } from '../deps.js';
import { AppError } from '../errors.js';

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * Exchanges the request body (the API token of the hosted monitoring service) for the monitors
 * at the configured API. The token lives only in this call: it goes into the adapter's
 * Authorization header and into no log, error or stored row. A refused token or an API that
 * cannot be reached is 502 UPSTREAM_FAILED, saying which; something that cannot be a token is
 * left to the caller as ImportInputError (400 INVALID_IMPORT_INPUT).
 */
export async function fetchHostedMonitorInput(deps: Pick<AppDeps, 'config'>, body: Uint8Array): Promise<HostedMonitorData> {
  try {
    return await fetchWithToken(body, { baseUrl: deps.config.import.hostedMonitorApiUrl });
  } catch (error) {
    if (!(error instanceof HostedApiError)) throw error;
    const retry = error.retryAfterSeconds;
    throw new AppError(
      'UPSTREAM_FAILED',
      `${capitalised(error.message)}.`.replace(/\.\.$/, '.'),
      { reason: error.reason, ...(error.status ? { upstreamStatus: error.status } : {}), ...(retry !== undefined ? { retryAfterSeconds: retry } : {}) },
      retry !== undefined ? { 'Retry-After': String(retry) } : undefined,
    );
  }
}
