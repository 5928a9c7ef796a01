import { parseDocument } from 'yaml';
import { ImportInputError } from '../shared/import-input-error.js';
import { isRecord } from '../shared/input-text.js';
import { AliasError, expandAliases } from './expand-aliases.js';
import { protectPlaceholders } from './placeholders.js';

/** What the importer expects, as error messages say it. */
export const EXPECTED = 'a Gatus YAML configuration with an `endpoints` list';

// Aliases may stand for at most this many YAML nodes in total. A file where every endpoint
// merges a defaults block uses a few per endpoint; an alias bomb ("billion laughs") needs
// exponentially many and is refused before any of it is built.
const MAX_EXPANDED_NODES = 1_000_000;

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
  const doc = parseDocument(text, { merge: true, prettyErrors: true });
  if (doc.errors.length > 0) {
    const first = doc.errors[0].message.split('\n')[0];
    throw new ImportInputError(`expected ${EXPECTED}, but the input is not valid YAML: ${first}`);
  }
  restore(doc);
  let value: unknown;
  try {
    expandAliases(doc, MAX_EXPANDED_NODES);
    // No alias is left, so the yaml package's own alias limit cannot be reached; zero makes
    // any alias this importer failed to expand an error rather than a silent lookup.
    value = doc.toJS({ maxAliasCount: 0 });
  } catch (error) {
    if (error instanceof RangeError) {
      throw new ImportInputError(`expected ${EXPECTED}, but the YAML is nested too deeply`, { cause: error });
    }
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new ImportInputError(
      error instanceof AliasError
        ? `expected ${EXPECTED}, but ${reason}; refused`
        : `expected ${EXPECTED}, but the YAML cannot be read: ${reason}`,
      { cause: error },
    );
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
