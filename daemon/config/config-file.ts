import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
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
  let document: unknown;
  try {
    document = parse(readFileSync(path, 'utf8'), { maxAliasCount: 100 });
  } catch (error) {
    throw new ConfigError(`${path}: not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  const values = new Map<string, unknown>();
  if (document === null || document === undefined) return { path, values };
  if (typeof document !== 'object' || Array.isArray(document)) throw new ConfigError(`${path}: expected a mapping of settings at the top level`);
  flatten(document as Record<string, unknown>, '', values);
  return { path, values };
}

function flatten(node: Record<string, unknown>, prefix: string, into: Map<string, unknown>): void {
  for (const [key, value] of Object.entries(node)) {
    const dotted = prefix + key;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) flatten(value as Record<string, unknown>, `${dotted}.`, into);
    else into.set(dotted, value);
  }
}
