// The states, statuses and windows the API names, as lists the daemon, the CLI and the dashboard
// share (a filter's choices, a validation's message). No imports: the dashboard bundles it.

/**
 * A check's state: `pending` until its first result, `paused` when disabled, `maintenance` while a
 * maintenance window covers it (it runs, but opens no incident and notifies nobody).
 */
export const CHECK_STATES = ['pending', 'up', 'degraded', 'down', 'paused', 'maintenance'] as const;
export type CheckState = (typeof CHECK_STATES)[number];

/** Where an incident stands. */
export const INCIDENT_STATUSES = ['open', 'acknowledged', 'resolved'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];

/** The windows uptime is computed over (`?window=`). */
export const UPTIME_WINDOWS = ['24h', '7d', '30d', '90d'] as const;
export type UptimeWindow = (typeof UPTIME_WINDOWS)[number];
