// The `configfile-monitor` source: a Gatus YAML configuration file.
import type { ConversionResult, ConvertOptions, Converter } from '../converter.js';
import { ConversionBuilder } from '../shared/conversion-builder.js';
import { inputText } from '../shared/input-text.js';
import { convertEndpoint } from './endpoint.js';
import { convertExternalEndpoint } from './external-endpoint.js';
import { EXPECTED, parseGatusConfig } from './parse-config.js';
import { reportTopLevel, skipSuites } from './top-level.js';

const PROGRESS_EVERY = 500;

/**
 * Converts a Gatus configuration (YAML text or its UTF-8 bytes) into checks: `endpoints` by
 * URL scheme (or `dns` block), `external-endpoints` as heartbeat checks; suites are skipped.
 * Throws ImportInputError only when the input is not such a configuration.
 */
export const convertConfigFile: Converter = (input, options?: ConvertOptions): ConversionResult => {
  const config = parseGatusConfig(inputText(input, EXPECTED));
  const builder = new ConversionBuilder('configfile-monitor');
  const alerting = config.top.alerting;
  const total = config.endpoints.length + config.externalEndpoints.length;
  let done = 0;
  const progress = () => {
    done++;
    if (options?.onProgress && (done % PROGRESS_EVERY === 0 || done === total)) options.onProgress(done, total);
  };
  config.endpoints.forEach((endpoint, index) => {
    convertEndpoint(endpoint, index, alerting, builder);
    progress();
  });
  config.externalEndpoints.forEach((endpoint, index) => {
    convertExternalEndpoint(endpoint, index, alerting, builder);
    progress();
  });
  skipSuites(config.suites, builder);
  reportTopLevel(config.top, builder);
  return builder.result();
};
