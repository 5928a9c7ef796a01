import { binaryTag, CORE_SCHEMA, load, mergeTag, YAMLException } from 'js-yaml';
import { AliasError, boundAliases } from '../shared/bound-aliases.js';
import { readFileBundle } from '../shared/file-bundle.js';
import { ImportInputError } from '../shared/import-input-error.js';
import { isRecord } from '../shared/input-text.js';

/** What the importer expects, as error messages say it. */
export const EXPECTED =
  'the Prometheus configuration that probes through the Blackbox exporter (`scrape_configs` with `metrics_path: /probe`) ' +
  'and the exporter\'s blackbox.yml (`modules`), as YAML, or several files in the bundle {"files": {"<name>": "<text>"}}';

const MAX_EXPANDED_NODES = 1_000_000;
const MAX_DEPTH = 100;
// YAML 1.2 core types, and `!!binary` (the exporter's own sample writes a binary `send` with it).
const SCHEMA = CORE_SCHEMA.withTags(mergeTag, binaryTag);

/** The files of one import, by what they are. */
export interface ProbeSetup {
  /** The Prometheus configuration (`scrape_configs`). */
  prometheus: Record<string, unknown>;
  /** The exporter's `modules`, when its blackbox.yml was given. */
  modules?: Record<string, unknown>;
  /** Every other file, parsed, by its name: the target files of `file_sd_configs`. */
  targetFiles: ReadonlyMap<string, unknown>;
}

function parseYaml(text: string, name: string): unknown {
  try {
    const value = load(text, { schema: SCHEMA, maxDepth: MAX_DEPTH, maxTotalMergeKeys: MAX_EXPANDED_NODES });
    boundAliases(value, { maxExpandedNodes: MAX_EXPANDED_NODES, maxDepth: MAX_DEPTH });
    return value;
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    const what = error instanceof AliasError ? `${reason}; refused` : error instanceof YAMLException ? `it is not valid YAML: ${reason}` : reason;
    throw new ImportInputError(`expected ${EXPECTED}, but ${name}: ${what}`, { cause: error });
  }
}

/**
 * Sorts the input's files by content: the one with `modules` is blackbox.yml, the one with
 * `scrape_configs` the Prometheus configuration, the rest target files. Throws ImportInputError
 * when there is no Prometheus configuration (blackbox.yml alone names no targets) or a role
 * is filled twice.
 */
export function readProbeSetup(text: string): ProbeSetup {
  const bundle = readFileBundle(text, EXPECTED) ?? new Map([['the input', text]]);
  let prometheus: { name: string; config: Record<string, unknown> } | undefined;
  let modules: { name: string; modules: Record<string, unknown> } | undefined;
  const targetFiles = new Map<string, unknown>();
  for (const [name, content] of bundle) {
    const value = parseYaml(content, name);
    if (isRecord(value) && 'modules' in value) {
      if (modules) throw new ImportInputError(`expected ${EXPECTED}, but both ${modules.name} and ${name} hold \`modules\`: give one blackbox.yml`);
      if (!isRecord(value.modules)) throw new ImportInputError(`expected ${EXPECTED}, but \`modules\` in ${name} is not a mapping`);
      modules = { name, modules: value.modules };
    } else if (isRecord(value) && 'scrape_configs' in value) {
      if (prometheus)
        throw new ImportInputError(`expected ${EXPECTED}, but both ${prometheus.name} and ${name} hold \`scrape_configs\`: give one Prometheus configuration`);
      prometheus = { name, config: value };
    } else targetFiles.set(name, value);
  }
  if (!prometheus) {
    const alone = modules ? `${modules.name} alone names no targets; give the Prometheus configuration too` : 'no file has `scrape_configs`';
    throw new ImportInputError(`expected ${EXPECTED}, but ${alone}`);
  }
  return { prometheus: prometheus.config, modules: modules?.modules, targetFiles };
}
