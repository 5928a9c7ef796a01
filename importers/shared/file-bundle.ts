import { ImportInputError } from './import-input-error.js';
import { isRecord } from './input-text.js';

/**
 * Several files in one request body, for a source whose configuration spans files (the
 * Prometheus configuration and the exporter's modules): the JSON object
 * `{"files": {"<name>": "<text>", ...}}`, each name the file's base name and each value its
 * text. The CLI sends it for a repeated --file; a single file is sent as it is.
 */
export type FileBundle = ReadonlyMap<string, string>;

/** The largest number of files one bundle may hold. */
const MAX_FILES = 100;

/** The file bundle the CLI sends for several files. */
export function fileBundleText(files: Iterable<readonly [string, string]>): string {
  return JSON.stringify({ files: Object.fromEntries(files) });
}

/**
 * The files of `text` when it is a bundle, undefined when it is not one (it does not start
 * with `{`, is not JSON, or has no `files` key). A `files` that is not a mapping of names to
 * text is an ImportInputError naming `expected`.
 */
export function readFileBundle(text: string, expected: string): FileBundle | undefined {
  if (!/^\s*\{/.test(text)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(value) || !('files' in value)) return undefined;
  const files = value.files;
  if (!isRecord(files)) throw new ImportInputError(`expected ${expected}, but \`files\` is not a mapping of file names to their text`);
  const entries = Object.entries(files);
  if (entries.length === 0) throw new ImportInputError(`expected ${expected}, but the bundle holds no files`);
  if (entries.length > MAX_FILES) throw new ImportInputError(`expected ${expected}, but the bundle holds more than ${MAX_FILES} files`);
  const bundle = new Map<string, string>();
  for (const [name, content] of entries) {
    if (typeof content !== 'string') throw new ImportInputError(`expected ${expected}, but the file ${JSON.stringify(name)} in the bundle is not text`);
    bundle.set(name, content);
  }
  return bundle;
}
