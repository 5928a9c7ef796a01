import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadAll } from 'js-yaml';
import { ConfigError } from './config-error.js';

/**
 * Reads the YAML configuration file and flattens it to dotted keys (`auth.password.algorithm`).
 * The file is `SVC_CONFIG` when set (it must exist), else `svc.yaml` in the working directory if present.
 */
export function readConfigFile(env: NodeJS.ProcessEnv, cwd: string): { path?: string; values: Map<string, unknown> } {
  const explicit = env.SVC_CONFIG;
  const path = resolve(cwd, explicit || 'svc.yaml');
  if (!existsSync(path)) {
    if (explicit) throw new ConfigError(`SVC_CONFIG: the configuration file ${path} does not exist`);
    return { values: new Map() };
  }
  let documents: unknown[];
  try {
    documents = loadAll(readFileSync(path, 'utf8'), { maxAliases: MAX_ALIASES });
  } catch (error) {
    throw new ConfigError(`${path}: not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  if (documents.length > 1) throw new ConfigError(`${path}: expected one YAML document, found ${documents.length}`);
  const [document] = documents;
  const values = new Map<string, unknown>();
  if (document === null || document === undefined) return { path, values };
  if (typeof document !== 'object' || Array.isArray(document)) throw new ConfigError(`${path}: expected a mapping of settings at the top level`);
  flatten(document as Record<string, unknown>, '', values, { path, left: MAX_NODES });
  return { path, values };
}

// Aliases share their anchor's value, so a few of them could make the walk below exponential.
const MAX_ALIASES = 100;
const MAX_NODES = 10_000;

function flatten(node: Record<string, unknown>, prefix: string, into: Map<string, unknown>, budget: { path: string; left: number }): void {
  for (const [key, value] of Object.entries(node)) {
    if (--budget.left < 0) throw new ConfigError(`${budget.path}: more than ${MAX_NODES} values; this is not a configuration file`);
    const dotted = prefix + key;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) flatten(value as Record<string, unknown>, `${dotted}.`, into, budget);
    else into.set(dotted, value);
  }
}
