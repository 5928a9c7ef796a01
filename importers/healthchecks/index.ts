// The cron monitor's Management API (source `cron-monitor-api`): its v3 checks listing, saved
// as JSON or fetched with an API key, becomes heartbeat checks that keep their ping UUIDs.
export { convertCronMonitorApi } from './convert.js';
// The adapter (and undici) load only when a key is given, straight from its module: see importers/registry.ts.
export type { CronMonitorChecks, FetchCronMonitorChecksOptions } from './fetch-checks.js';
