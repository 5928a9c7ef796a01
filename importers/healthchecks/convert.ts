import { ConversionBuilder, isRecord, type ConversionResult, type ConvertOptions } from '../converter.js';
import { listedChecks } from './listing.js';
import { checkCandidate, checkItem } from './map-check.js';
import type { CronMonitorChecks } from './fetch-checks.js';

const SOURCE = 'cron-monitor-api';
const PROGRESS_EVERY = 500;

/**
 * Converts the cron monitor's checks listing (saved JSON, or what the adapter fetched with an
 * API key) into heartbeat checks, in the API's order. Pure: no network, no clock. Throws
 * ImportInputError only when the input is not such a listing.
 */
export function convertCronMonitorApi(input: Uint8Array | string | CronMonitorChecks, options: ConvertOptions = {}): ConversionResult {
  const checks = listedChecks(input);
  const builder = new ConversionBuilder(SOURCE);
  checks.forEach((raw, index) => {
    const fields = isRecord(raw) ? raw : undefined;
    const scope = builder.item(checkItem(fields, index));
    if (fields === undefined) builder.skip(scope, 'INVALID_ITEM', 'the check is not a JSON object');
    else {
      const outcome = checkCandidate(fields, scope.item, scope);
      if ('skip' in outcome) builder.skip(scope, outcome.skip, outcome.message, outcome.field);
      else builder.emit(scope, outcome);
    }
    if ((index + 1) % PROGRESS_EVERY === 0) options.onProgress?.(index + 1, checks.length);
  });
  return builder.result();
}
