import { CORE_SCHEMA, load, mergeTag, YAMLException } from 'js-yaml';
import { ImportInputError } from '../shared/import-input-error.js';
import { isRecord } from '../shared/input-text.js';
import { AliasError, boundAliases } from '../shared/bound-aliases.js';
import { protectPlaceholders } from './placeholders.js';

/** What the importer expects, as error messages say it. */
export const EXPECTED = 'a Gatus YAML configuration with an `endpoints` list';

// Aliases may stand for at most this many YAML nodes in total, and merge keys may copy at most
// this many keys. A file where every endpoint merges a defaults block uses a few per endpoint;
// an alias bomb ("billion laughs") needs exponentially many and is refused before the converter
// reads any of it.
const MAX_EXPANDED_NODES = 1_000_000;
// Nesting depth, aliases included: far beyond any configuration, far below the stack's limit.
const MAX_DEPTH = 100;
// YAML 1.2 core types (no timestamps: a date stays text, as Gatus reads it) and merge keys.
const SCHEMA = CORE_SCHEMA.withTags(mergeTag);

/** The top level of a Gatus configuration: the lists the importer reads, as parsed. */
export interface GatusConfig {
  endpoints: unknown[];
  externalEndpoints: unknown[];
  suites: unknown[];
  /** The whole top-level mapping, for the sections that only produce warnings. */
  top: Record<string, unknown>;
}

function listAt(top: Record<string, unknown>, key: string): unknown[] {
  const value = top[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new ImportInputError(`expected ${EXPECTED}, but \`${key}\` is not a list`);
  return value;
}

/**
 * Parses the YAML text of a Gatus configuration: anchors and merge keys resolved, `${VAR}`
 * placeholders kept verbatim. Throws ImportInputError when the text is not YAML, holds more
 * than one document, expands aliases excessively, or has none of `endpoints`,
 * `external-endpoints` and `suites`.
 */
export function parseGatusConfig(source: string): GatusConfig {
  const { text, restore } = protectPlaceholders(source);
  let value: unknown;
  try {
    value = load(text, { schema: SCHEMA, maxDepth: MAX_DEPTH, maxTotalMergeKeys: MAX_EXPANDED_NODES });
    boundAliases(value, { maxExpandedNodes: MAX_EXPANDED_NODES, maxDepth: MAX_DEPTH });
    value = restore(value);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    if (error instanceof AliasError) throw new ImportInputError(`expected ${EXPECTED}, but ${reason}; refused`, { cause: error });
    if (error instanceof YAMLException) throw new ImportInputError(`expected ${EXPECTED}, but the input is not valid YAML: ${reason}`, { cause: error });
    throw new ImportInputError(`expected ${EXPECTED}, but the YAML cannot be read: ${reason}`, { cause: error });
  }
  if (!isRecord(value)) throw new ImportInputError(`expected ${EXPECTED}, but the input is not a YAML mapping`);
  if (!('endpoints' in value) && !('external-endpoints' in value) && !('suites' in value)) {
    throw new ImportInputError(`expected ${EXPECTED}; the input has no \`endpoints\`, \`external-endpoints\` or \`suites\``);
  }
  return {
    endpoints: listAt(value, 'endpoints'),
    externalEndpoints: listAt(value, 'external-endpoints'),
    suites: listAt(value, 'suites'),
    top: value,
  };
}
