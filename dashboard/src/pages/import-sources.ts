import { IMPORT_SOURCE_DESCRIPTIONS } from '../../../contract/import-sources';
import type { ImportSource } from '../api/types';

/** How each source's input is given: a file or pasted text, or an API token. */
export interface SourceInfo {
  source: ImportSource;
  /** The tool people know, then what they give: "Gatus configuration file". */
  title: string;
  description: string;
  input: 'file-or-text' | 'token';
  /** What the paste box expects, for its label. */
  pasteLabel?: string;
  accept?: string;
  /** Whether several files may be chosen together; they are sent as one file bundle (docs/import.md). */
  multipleFiles?: boolean;
  /** A file-or-text source that also takes an API key, which the server exchanges for the listing: the key field's label and hint. */
  key?: { label: string; hint: string };
}

const titled = (source: ImportSource, what: string) => `${IMPORT_SOURCE_DESCRIPTIONS[source].toolName} ${what}`;

export const IMPORT_SOURCES: SourceInfo[] = [
  {
    source: 'configfile-monitor',
    title: titled('configfile-monitor', 'configuration file'),
    description: 'The YAML configuration file with its endpoints list. Environment placeholders are kept as they are and reported.',
    input: 'file-or-text',
    pasteLabel: 'Configuration file (YAML)',
    accept: '.yaml,.yml,text/yaml,text/plain',
  },
  {
    source: 'uptime-api-monitor',
    title: titled('uptime-api-monitor', 'monitors listing'),
    description: 'The JSON answer of the monitor listing of API version 2 (getMonitors).',
    input: 'file-or-text',
    pasteLabel: 'Monitors listing (JSON)',
    accept: '.json,application/json,text/plain',
  },
  {
    source: 'probe-exporter-config',
    title: titled('probe-exporter-config', 'configuration'),
    description:
      'The Prometheus configuration that probes through the exporter, with its blackbox.yml and any target files of file_sd_configs: choose them together.',
    input: 'file-or-text',
    pasteLabel: 'Prometheus configuration (YAML)',
    accept: '.yml,.yaml,.json,text/yaml,application/json,text/plain',
    multipleFiles: true,
  },
  {
    source: 'hosted-check-api',
    title: titled('hosted-check-api', 'checks listing'),
    description:
      'An API token, with which the server reads the checks and their details (API 3.1 GET /checks and GET /checks/{id}), or the JSON of those answers saved: the listing, the details, or both as {"checks": [...], "details": [...]}.',
    input: 'file-or-text',
    pasteLabel: 'Checks listing or details (JSON)',
    accept: '.json,application/json,text/plain',
    key: {
      label: 'API token',
      hint: 'Sent to this server only, used for the requests to the API it is configured for, not stored. A token takes precedence over a file or pasted listing.',
    },
  },
  {
    source: 'selfhosted-monitor-db',
    title: titled('selfhosted-monitor-db', 'database file or backup'),
    description: 'The SQLite database file of version 2.x, or the backup JSON of version 1.x.',
    input: 'file-or-text',
    pasteLabel: 'Backup JSON (version 1.x)',
    accept: '.db,.sqlite,.sqlite3,.json,application/octet-stream,application/json',
  },
  {
    source: 'cron-monitor-api',
    title: titled('cron-monitor-api', 'checks listing'),
    description:
      "The project's API key, with which the server reads the checks (GET /api/v3/checks/ of the Management API), or that listing saved as JSON. With a read-write key each check keeps its ping UUID, so /ping/<uuid> keeps working here.",
    input: 'file-or-text',
    pasteLabel: 'Checks listing (JSON)',
    accept: '.json,application/json,text/plain',
    key: {
      label: 'API key',
      hint: 'Sent to this server only, used for one request to the Management API it is configured for, not stored. A key takes precedence over a file or pasted listing.',
    },
  },
  {
    source: 'hosted-monitor-api',
    title: titled('hosted-monitor-api', 'API token'),
    description: 'The server reads your monitors and heartbeats with this token, uses it for that request only, and never stores it.',
    input: 'token',
  },
];
