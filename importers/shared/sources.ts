// The import sources. The values are fixed by the API; the tool names are accepted as
// aliases so that people can type the name of the tool they are leaving.

import { IMPORT_SOURCES, IMPORT_SOURCE_DESCRIPTIONS, type ImportSource } from '../../contract/import-sources.js';

export { IMPORT_SOURCES, type ImportSource };

/** The tool names accepted in place of a source value; responses always name the canonical value. */
export const IMPORT_SOURCE_ALIASES: Readonly<Record<string, ImportSource>> = Object.freeze(
  Object.fromEntries(IMPORT_SOURCES.map((source) => [IMPORT_SOURCE_DESCRIPTIONS[source].tool, source])),
);

/** Whether `name` is one of the canonical source values. */
export function isImportSource(name: string): name is ImportSource {
  return (IMPORT_SOURCES as readonly string[]).includes(name);
}

/**
 * The canonical source value for a source value or a tool alias (case and surrounding spaces
 * ignored), or undefined when `name` is neither.
 */
export function canonicalSource(name: string): ImportSource | undefined {
  const key = name.trim().toLowerCase();
  if (isImportSource(key)) return key;
  return Object.hasOwn(IMPORT_SOURCE_ALIASES, key) ? IMPORT_SOURCE_ALIASES[key] : undefined;
}

/** The key of the label every imported check carries: `svc-managed=<source>`. */
export const MANAGED_LABEL_KEY = 'svc-managed';
