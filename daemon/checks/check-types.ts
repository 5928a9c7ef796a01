import { checkTypeNames, listCheckTypes, sampleCheck, type CheckDefinition, type CheckTypeName, type CheckTypeSummary } from '../../checks/index.js';
import { probeAvailability } from '../../probes/registry.js';
import type { AppCaches } from '../caches.js';
import { notFound } from '../errors.js';

// The check-type catalog, as the REST API and the MCP tools answer it.

/** Every check type, with the JSON Schema of its config: built once per app (the schemas are never mutated). */
export const checkTypeCatalog = (caches: AppCaches): CheckTypeSummary[] => (caches.checkTypes ??= listCheckTypes());

/** The catalog with whether this daemon can run each type (`runnable`, and `reason` when not). */
export const runnableCheckTypes = (caches: AppCaches): Array<CheckTypeSummary & { runnable: boolean; reason?: string }> =>
  checkTypeCatalog(caches).map((type) => ({ ...type, ...probeAvailability(type.type as CheckTypeName) }));

/** A complete, valid check definition of `type`; 404 naming the known types when there is no such type. */
export function requireSample(type: string): CheckDefinition {
  const sample = sampleCheck(type);
  if (!sample) throw notFound(`No check type "${type}"; known types: ${checkTypeNames.join(', ')}.`);
  return sample;
}
