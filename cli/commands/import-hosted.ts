import { fetchWithToken, type HostedMonitorData } from '../../importers/index.js';
import { readEnv } from '../config.js';
import { CliError } from '../errors.js';

/**
 * `--local` for the hosted source: the CLI does what the daemon would, fetching the monitors
 * with the token through the same adapter, at `SVC_IMPORT_HOSTED_MONITOR_API_URL` or the
 * service's own address. A refused token or an unreachable API is one line, never the token.
 */
export async function fetchHostedMonitorsLocally(token: Uint8Array, env: NodeJS.ProcessEnv): Promise<HostedMonitorData> {
  // Loaded only now: the adapter (and undici) are needed by this source alone.
  const { DEFAULT_HOSTED_MONITOR_API_URL, HostedApiError } = await import('../../importers/betterstack/index.js');
  const baseUrl = readEnv('SVC_IMPORT_HOSTED_MONITOR_API_URL', env) || DEFAULT_HOSTED_MONITOR_API_URL;
  try {
    return await fetchWithToken(token, { baseUrl });
  } catch (error) {
    if (error instanceof HostedApiError) throw new CliError(error.message);
    throw error;
  }
}
