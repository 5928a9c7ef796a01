import { convertImport, IMPORT_REGISTRY, ImportInputError, type ConversionResult, type ImportSource } from '../../importers/index.js';
import { AppError } from '../errors.js';
import { fetchHostedMonitorInput } from '../import/hosted-input.js';
import { parseImportQuery } from '../import/import-query.js';
import { runImport } from '../import/run-import.js';
import type { AppDeps } from '../deps.js';
import { orgOf } from './checks.js';
import { route, type RouteSpec } from './route.js';

/** The largest import body: a big self-hosted database file fits, a runaway upload does not. */
export const IMPORT_BODY_LIMIT = 64 * 1024 * 1024;

/** Reads the body as its source's input and converts it; unreadable input is 400 INVALID_IMPORT_INPUT. */
async function convertBody(deps: AppDeps, source: ImportSource, body: Buffer): Promise<ConversionResult> {
  const entry = IMPORT_REGISTRY[source];
  try {
    // The hosted source's body is a token: the monitors are fetched first, and only they reach
    // the converter. The token is used for that request and then dropped.
    const input = entry.fetchesWithToken ? await fetchHostedMonitorInput(deps, body) : new Uint8Array(body.buffer, body.byteOffset, body.length);
    return await convertImport(source, input);
  } catch (error) {
    if (error instanceof ImportInputError) {
      throw new AppError('INVALID_IMPORT_INPUT', `The ${source} import cannot read this input: ${error.message}.`.replace(/\.\.$/, '.'), {
        source,
        expected: entry.input,
      });
    }
    throw error;
  }
}

/** The import of monitors from other tools: one call previews (`dryRun=true`) or applies. */
export const checkImportRoutes: RouteSpec[] = [
  route({
    method: 'POST',
    path: '/orgs/:org/checks/import/convert',
    permission: 'checks:write',
    rawBodyLimit: IMPORT_BODY_LIMIT,
    summary:
      'Import checks from another tool: ?source= (configfile-monitor, hosted-monitor-api, selfhosted-monitor-db, uptime-api-monitor, or the tool names), ' +
      'raw export as the body (for hosted-monitor-api, its API token); ?dryRun=true previews; apply is one transaction, matched by slug.',
    async handler({ deps, auth, query, body }) {
      const { source, dryRun } = parseImportQuery(query);
      const result = await convertBody(deps, source, body as Buffer);
      return runImport(deps, orgOf(auth).uid, source, result, { dryRun });
    },
  }),
];
