// The `probe-exporter-config` source: the Prometheus configuration that probes through the
// Blackbox exporter, with the exporter's blackbox.yml (and target files) beside it.
import type { ConversionResult, ConvertOptions, Converter } from '../converter.js';
import { ConversionBuilder } from '../shared/conversion-builder.js';
import { inputText } from '../shared/input-text.js';
import { EXPECTED, readProbeSetup } from './files.js';
import { probeCandidate } from './probe-check.js';
import { hideUrlCredentials } from '../shared/url-credentials.js';
import { probeTargets } from './scrape-targets.js';

export { EXPECTED as PROBE_EXPORTER_INPUT } from './files.js';

const PROGRESS_EVERY = 500;

/**
 * Converts the probes Prometheus asks the exporter for into checks, one per target and
 * module. The input is the Prometheus configuration as YAML, or a file bundle with it,
 * blackbox.yml and target files. Throws ImportInputError only when the input is not that.
 */
export const convertProbeExporterConfig: Converter = (input, options?: ConvertOptions): ConversionResult => {
  const setup = readProbeSetup(inputText(input, EXPECTED));
  const builder = new ConversionBuilder('probe-exporter-config');
  const probes = probeTargets(setup.prometheus, setup.targetFiles, builder);
  const seen = new Map<string, string>();
  probes.forEach((probe, index) => {
    const scope = builder.item(`${probe.job}: ${hideUrlCredentials(probe.target)}`);
    const key = `${probe.module}\u0000${probe.target}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      builder.skip(scope, 'INVALID_ITEM', `the job ${earlier} probes the same target with the same module; one check covers both`);
    } else {
      seen.set(key, probe.job);
      const candidate = probeCandidate(probe, setup.modules, scope);
      if ('skip' in candidate) builder.skip(scope, candidate.skip, candidate.message, 'params.module');
      else builder.emit(scope, candidate);
    }
    if (options?.onProgress && ((index + 1) % PROGRESS_EVERY === 0 || index + 1 === probes.length)) options.onProgress(index + 1, probes.length);
  });
  return builder.result();
};
