import { fetchWithToken, type ConverterInput, type ImportSource } from '../../importers/index.js';
import { readEnv } from '../config.js';
import { CliError } from '../errors.js';

/** Where each token source's API is, unless its variable names another base URL (as the daemon's settings). */
const TOKEN_APIS: Partial<Record<ImportSource, { env: string; defaultUrl: string }>> = {
  'cron-monitor-api': { env: 'SVC_IMPORT_CRON_MONITOR_API_URL', defaultUrl: 'https://healthchecks.io' },
  'hosted-check-api': { env: 'SVC_IMPORT_HOSTED_CHECK_API_URL', defaultUrl: 'https://api.pingdom.com' },
  'hosted-monitor-api': { env: 'SVC_IMPORT_HOSTED_MONITOR_API_URL', defaultUrl: 'https://uptime.betterstack.com' },
};

/**
 * `--local` for a token source: the CLI does what the daemon would, fetching the monitors with
 * the token through the same adapter, at the source's URL variable (`SVC_IMPORT_CRON_MONITOR_API_URL`,
 * `SVC_IMPORT_HOSTED_CHECK_API_URL`, `SVC_IMPORT_HOSTED_MONITOR_API_URL`) or the service's own address. A refused token or an
 * unreachable API is one line, never the token.
 */
export async function fetchWithTokenLocally(source: ImportSource, token: Uint8Array, env: NodeJS.ProcessEnv): Promise<ConverterInput> {
  // Loaded only now: the adapters (and undici) are needed by the token sources alone.
  const { HostedApiError } = await import('../../importers/shared/upstream-error.js');
  const api = TOKEN_APIS[source];
  const baseUrl = (api && readEnv(api.env, env)) || api?.defaultUrl || '';
  try {
    return await fetchWithToken(source, token, { baseUrl });
  } catch (error) {
    if (error instanceof HostedApiError) throw new CliError(error.message);
    throw error;
  }
}
