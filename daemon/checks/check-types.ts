import { checkTypeNames, listCheckTypes, sampleCheck, type CheckDefinition, type CheckTypeName, type CheckTypeSummary } from '../../checks/index.js';
import { probeAvailability } from '../../probes/registry.js';
import { notFound } from '../errors.js';

// The check-type catalog, as the REST API and the MCP tools answer it.

// Fixed for the life of the process; its JSON Schemas are built once, and it is never mutated.
let catalog: CheckTypeSummary[] | undefined;

/** Every check type, with the JSON Schema of its config. */
export const checkTypeCatalog = (): CheckTypeSummary[] => (catalog ??= listCheckTypes());

/** The catalog with whether this daemon can run each type (`runnable`, and `reason` when not). */
export const runnableCheckTypes = (): Array<CheckTypeSummary & { runnable: boolean; reason?: string }> =>
  checkTypeCatalog().map((type) => ({ ...type, ...probeAvailability(type.type as CheckTypeName) }));

/** A complete, valid check definition of `type`; 404 naming the known types when there is no such type. */
export function requireSample(type: string): CheckDefinition {
  const sample = sampleCheck(type);
  if (!sample) throw notFound(`No check type "${type}"; known types: ${checkTypeNames.join(', ')}.`);
  return sample;
}
