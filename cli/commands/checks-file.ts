import { readFile } from 'node:fs/promises';
import { CORE_SCHEMA, dump, load, mergeTag } from 'js-yaml';
import type { CheckCommon } from '../../checks/check.js';
import { CliError } from '../errors.js';
import { readStdin } from '../prompts.js';

// The checks file that `svc checks apply` reads and `svc checks export` writes:
//
//   checks:
//     - slug: api-health
//       name: API health
//       type: http
//       target: https://api.example.com/health
//       ...
//
// Each entry is a check as the API takes it (docs/api.md); the slug identifies it.

/** The label that marks the checks `svc checks apply` manages; only these are pruned. */
export const MANAGED_LABEL = { key: 'svc-managed', value: 'apply' } as const;

/** A check definition as the API shows it, without the timestamps. */
export type CheckDefinition = Record<string, unknown> & { slug: string; labels: Record<string, string> };

/**
 * The fields that define a check, the ones a file holds. The API shows more (timestamps, the
 * current state, the last result, a heartbeat's ping URL): those are what the check does, not
 * what it is, so they are neither exported nor compared.
 */
export const DEFINITION_FIELDS = [
  'slug',
  'name',
  'type',
  'enabled',
  'intervalSeconds',
  'target',
  'config',
  'thresholds',
  'labels',
  'description',
] as const satisfies readonly (keyof CheckCommon | 'type' | 'config')[];

/** Only the defining fields of a check as the API shows it. */
export function definitionOf(check: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(DEFINITION_FIELDS.filter((field) => field in check).map((field) => [field, check[field]]));
}

// YAML 1.2 core types (a date stays text) and merge keys, so a file can share defaults with `<<: *defaults`.
const SCHEMA = CORE_SCHEMA.withTags(mergeTag);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads a checks file (`-` for standard input): its entries, not yet validated. A broken file fails with exit 1. */
export async function readChecksFile(path: string): Promise<unknown[]> {
  let text: string;
  try {
    text = path === '-' ? (await readStdin()).toString('utf8') : await readFile(path, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = load(text, { schema: SCHEMA });
  } catch (error) {
    throw new CliError(`${path} is not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  if (!isRecord(parsed) || !Array.isArray(parsed.checks)) throw new CliError(`${path} must hold a "checks" list (the format svc checks export writes)`);
  return parsed.checks;
}

/** A check as exported: its defining fields, without the managed label (apply adds it back). */
export function exportedCheck(check: Record<string, unknown>): Record<string, unknown> {
  const definition = definitionOf(check);
  const { [MANAGED_LABEL.key]: _managed, ...labels } = (definition.labels ?? {}) as Record<string, string>;
  return { ...definition, labels };
}

/** The checks file text: YAML, or JSON with --json. */
export function checksFileText(checks: Record<string, unknown>[], format: 'yaml' | 'json'): string {
  const document = { checks };
  if (format === 'json') return `${JSON.stringify(document, null, 2)}\n`;
  return `# svc checks: apply with \`svc checks apply -f FILE\` (docs/cli.md)\n${dump(document, { lineWidth: -1, noRefs: true })}`;
}
