// The hosted monitoring API (source `hosted-monitor-api`). The request body is an API token:
// `fetchHostedMonitors` (the only network code of the importers) exchanges it for the plain
// lists, and `convertHostedMonitorApi` (pure) turns those into checks.
export { convertHostedMonitorApi } from './convert.js';
export { fetchHostedMonitors, type FetchHostedMonitorsOptions } from './fetch-monitors.js';
export { DEFAULT_HOSTED_MONITOR_API_URL, type HostedMonitorData } from './hosted-data.js';
export { HostedApiError, type UpstreamFailure } from './upstream-error.js';
