// The cron monitor's Management API (source `cron-monitor-api`): its v3 checks listing, saved
// as JSON or fetched with an API key, becomes heartbeat checks that keep their ping UUIDs.
export { convertCronMonitorApi } from './convert.js';
