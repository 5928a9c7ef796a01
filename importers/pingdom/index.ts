// The `hosted-check-api` source: the JSON of Pingdom's API 3.1 checks listing and details.
import type { ConversionResult, ConvertOptions } from '../converter.js';
import { ConversionBuilder } from '../shared/conversion-builder.js';
import { inputText } from '../shared/input-text.js';
import { convertCheck } from './map-check.js';
import { EXPECTED, readChecks, type HostedCheckData } from './read-checks.js';

export type { HostedCheckData } from './read-checks.js';

const PROGRESS_EVERY = 500;

/**
 * Converts the checks of the hosted check API (GET /checks, GET /checks/{id}, or both, saved or
 * fetched with a token) into checks; transaction checks are skipped. Throws ImportInputError
 * for anything else.
 */
export const convertHostedCheckApi = (input: Uint8Array | string | HostedCheckData, options?: ConvertOptions): ConversionResult => {
  const checks = readChecks(typeof input === 'string' || input instanceof Uint8Array ? inputText(input, EXPECTED) : input);
  const builder = new ConversionBuilder('hosted-check-api');
  checks.forEach((check, index) => {
    convertCheck(check, builder);
    if (options?.onProgress && ((index + 1) % PROGRESS_EVERY === 0 || index + 1 === checks.length)) options.onProgress(index + 1, checks.length);
  });
  return builder.result();
};
