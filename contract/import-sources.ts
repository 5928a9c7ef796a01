// No imports: the contract is the ground floor that daemon, CLI and dashboard all read.

/** Every import source value, in the order the API documents them. */
export const IMPORT_SOURCES = [
  'configfile-monitor',
  'cron-monitor-api',
  'hosted-check-api',
  'hosted-monitor-api',
  'probe-exporter-config',
  'selfhosted-monitor-db',
  'uptime-api-monitor',
] as const;

/** An import source value, as the API and the CLI name it. */
export type ImportSource = (typeof IMPORT_SOURCES)[number];

/** What one source is: the tool it comes from (accepted as an alias) and what its input is. */
export interface ImportSourceDescription {
  /** The real tool's name as a value, accepted in place of the source value. */
  readonly tool: string;
  /** The real tool's name as people write it, for pages and help. */
  readonly toolName: string;
  /** What the request body (or the CLI's input) is, for help and error messages. */
  readonly input: string;
}

/** The tool name and input of every import source. */
export const IMPORT_SOURCE_DESCRIPTIONS: Readonly<Record<ImportSource, ImportSourceDescription>> = Object.freeze({
  'configfile-monitor': { tool: 'gatus', toolName: 'Gatus', input: 'the YAML configuration file of the endpoint monitor' },
  'cron-monitor-api': {
    tool: 'healthchecks',
    toolName: 'Healthchecks.io',
    input: "an API key of the cron monitor's project, or the JSON of the checks listing of its Management API v3 (GET /api/v3/checks/) saved to a file",
  },
  'hosted-check-api': {
    tool: 'pingdom',
    toolName: 'Pingdom',
    input:
      'an API token of the hosted check service, or the JSON of API 3.1 GET /checks, of GET /checks/{id} answers, or both as {"checks": [...], "details": [...]}',
  },
  'hosted-monitor-api': {
    tool: 'betterstack',
    toolName: 'Better Stack',
    input: 'an API token of the hosted monitoring service, or the JSON of its monitors and heartbeats listings saved to a file',
  },
  'probe-exporter-config': {
    tool: 'blackbox-exporter',
    toolName: 'Prometheus Blackbox exporter',
    input:
      'the Prometheus configuration (prometheus.yml) with the exporter\'s blackbox.yml and target files, as the bundle {"files": {"<name>": "<text>"}} (or prometheus.yml alone)',
  },
  'selfhosted-monitor-db': {
    tool: 'uptime-kuma',
    toolName: 'Uptime Kuma',
    input: 'the 2.x database file (raw bytes) or the 1.x backup JSON of the self-hosted monitor',
  },
  'uptime-api-monitor': {
    tool: 'uptimerobot',
    toolName: 'UptimeRobot',
    input: 'the monitors-listing JSON of version 2 of the hosted monitor API (getMonitors)',
  },
});
