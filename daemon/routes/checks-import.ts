import { countImport } from '../metrics/import-metrics.js';
import { IMPORT_REGISTRY, ImportInputError, type ImportSource } from '../../importers/index.js';
import { AppError } from '../errors.js';
import { convertOffThread, type Converted } from '../import/convert-off-thread.js';
import { tokenApiUrl } from '../import/hosted-input.js';
import { parseImportQuery } from '../import/import-query.js';
import { runImport } from '../import/run-import.js';
import type { AppDeps } from '../deps.js';
import { orgOf } from './checks.js';
import { route, type RouteSpec } from '../http/route.js';
import type { ImportResult } from '../../contract/responses.js';

/** The largest import body: a big self-hosted database file fits, a runaway upload does not. */
export const IMPORT_BODY_LIMIT = 64 * 1024 * 1024;

/** Reads the body as its source's input and converts it off the event loop; unreadable input is 400 INVALID_IMPORT_INPUT. */
async function convertBody(deps: AppDeps, org: string, source: ImportSource, body: Buffer): Promise<Converted> {
  const entry = IMPORT_REGISTRY[source];
  try {
    const { conversionTimeoutMs: timeoutMs, conversionMemoryMb: memoryMb } = deps.config.import;
    const apiUrl = tokenApiUrl(source, deps.config.import);
    return await convertOffThread(
      source,
      new Uint8Array(body.buffer, body.byteOffset, body.length),
      { timeoutMs, memoryMb, apiUrl },
      {
        pool: deps.caches.conversions,
        org,
      },
    );
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
    response: 'ImportResult',
    rawBodyLimit: IMPORT_BODY_LIMIT,
    summary:
      'Import checks from another tool: ?source= (configfile-monitor, cron-monitor-api, hosted-check-api, hosted-monitor-api, probe-exporter-config, ' +
      'selfhosted-monitor-db, uptime-api-monitor, or the tool names), raw export as the body (for cron-monitor-api, hosted-check-api and ' +
      'hosted-monitor-api, an API token or key, or the saved listings; for probe-exporter-config, ' +
      'several files as {"files": {name: text}}); ?dryRun=true previews; apply is one transaction, matched by slug; ' +
      '?takeOver=true changes checks another source or a person owns; a re-run changes only fields the source changed since the last import, ' +
      '?overwrite=true also those changed here; ?expect=<digest> applies only what the preview showed.',
    async handler({ deps, auth, query, body }): Promise<ImportResult> {
      const { source, ...options } = parseImportQuery(query);
      // The worker searched the checks for NUL characters (see nulIssues), off the event loop.
      const org = orgOf(auth).uid;
      const { result, digest, canonical, nulPath } = await convertBody(deps, org, source, body as Buffer);
      if (nulPath !== undefined) {
        throw new AppError('INVALID_IMPORT_INPUT', `The ${source} import holds a NUL character where svc keeps text (${nulPath}).`, {
          source,
          expected: IMPORT_REGISTRY[source].input,
        });
      }
      const response = await runImport(deps, org, source, result, { ...options, conversionDigest: digest, canonicalChecks: canonical });
      countImport(deps.metrics, source, options.dryRun, response);
      return response;
    },
  }),
];
