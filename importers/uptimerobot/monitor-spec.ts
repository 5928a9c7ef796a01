import type { MonitorKind, PortService } from './codes.js';
import type { RequestParts } from './http-request.js';

/** Text the response must (or must not) contain. */
export interface Keyword {
  value: string;
  expect: 'present' | 'absent';
  caseSensitive: boolean;
}

/** A JSON assertion in the catalog's shape. */
export interface JsonQuery {
  expression: string;
  operator: '==' | '!=' | '<' | '<=' | '>' | '>=' | 'contains';
  expected: string;
}

/**
 * One monitor as both API versions describe it, in the importer's terms. The readers of v2
 * and v3 fill it (warning about what they drop); one builder turns it into a check.
 */
export interface MonitorSpec {
  name: string;
  kind: MonitorKind;
  url: string;
  port?: number;
  portService?: PortService;
  keyword?: Keyword;
  request?: RequestParts;
  statusCodes?: (number | string)[];
  jsonQueries?: JsonQuery[];
  ignoreTlsErrors?: boolean;
  followRedirects?: boolean;
  certificateDays?: number;
  intervalSeconds?: number;
  timeoutSeconds?: number;
  degradedResponseMs?: number;
  graceSeconds?: number;
  enabled: boolean;
  labels: [string, string][];
  dns?: { recordType: string; values: string[] };
  udpPayload?: string;
  /** The source's names of the fields that warnings may point at. */
  fields: { url: string; port: string; interval: string; timeout: string; subType: string };
}
