import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { TOKEN_SOURCES } from '../../importers/index.js';
import { fileBundleText } from '../../importers/shared/file-bundle.js';
import { readEnv } from '../config.js';
import { CliError, usageError } from '../errors.js';
import { readStdin } from '../prompts.js';

/** The largest input the daemon accepts (API.md: 413 beyond it); checked before anything is sent. */
export const IMPORT_INPUT_LIMIT = 64 * 1024 * 1024;

/** Where the input comes from: exactly one of the three flags (--file may be repeated). */
export interface InputFlags {
  file?: string[];
  stdin?: boolean;
  tokenEnv?: string;
}

/** The input's bytes and how to name it in messages (never the token itself). */
export interface ImportInput {
  bytes: Uint8Array;
  label: string;
}

const mib = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;

/**
 * Checks that exactly one input flag is given, that a token comes only for the source that
 * takes one, and that --file is repeated only for a source whose input spans several files.
 */
export function checkInputFlags(flags: InputFlags, takesToken: boolean, takesFiles = false): void {
  const files = flags.file ?? [];
  if (files.length > 1 && !takesFiles) throw usageError('this source reads one file: give --file once');
  const given = [files.length > 0 && '--file', flags.stdin && '--stdin', flags.tokenEnv !== undefined && '--token-env'].filter(Boolean);
  if (given.length === 0) throw usageError(`say where the input is: --file PATH or --stdin${takesToken ? ' or --token-env VAR' : ''}`);
  if (given.length > 1) throw usageError(`${given.join(' and ')} cannot be used together: give one input`);
  if (flags.tokenEnv !== undefined && !takesToken)
    throw usageError(
      `--token-env is for --source ${TOKEN_SOURCES.slice(0, -1).join(', ')} or ${TOKEN_SOURCES.at(-1)}; other sources read an export with --file or --stdin`,
    );
}

/** Reads the input named by the flags, refusing one over the daemon's limit before reading it all. */
export async function readImportInput(flags: InputFlags, env: NodeJS.ProcessEnv): Promise<ImportInput> {
  if (flags.tokenEnv !== undefined) {
    const token = readEnv(flags.tokenEnv, env);
    if (!token || token.trim() === '') throw usageError(`the environment variable ${flags.tokenEnv} is empty or not set`);
    return { bytes: new TextEncoder().encode(token.trim()), label: `the token in $${flags.tokenEnv}` };
  }
  if (flags.stdin) {
    const bytes = await readStdin();
    if (bytes.length > IMPORT_INPUT_LIMIT) throw tooLarge('standard input', bytes.length);
    return { bytes, label: 'standard input' };
  }
  const paths = flags.file!;
  if (paths.length > 1) return readFiles(paths);
  return readOneFile(paths[0]);
}

/** Checks that `path` is a file within the limit; its size. */
async function fileSize(path: string): Promise<number> {
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new CliError(`${path} is not a file`);
    size = info.size;
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
  }
  if (size > IMPORT_INPUT_LIMIT) throw tooLarge(path, size);
  return size;
}

async function readOneFile(path: string): Promise<ImportInput> {
  await fileSize(path);
  return { bytes: await readFile(path), label: path };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Several files as one bundle (importers/shared/file-bundle.ts): each named by its base name,
 * its text as the value. The names must differ; each file must be UTF-8 text.
 */
async function readFiles(paths: string[]): Promise<ImportInput> {
  const names = new Map<string, string>();
  let total = 0;
  for (const path of paths) {
    const name = basename(path);
    const other = names.get(name);
    if (other !== undefined) throw usageError(`${other} and ${path} have the same name ${name}; the import names each file by its base name`);
    names.set(name, path);
    total += await fileSize(path);
  }
  if (total > IMPORT_INPUT_LIMIT) throw tooLarge(paths.join(', '), total);
  const files: [string, string][] = [];
  for (const [name, path] of names) {
    try {
      files.push([name, utf8.decode(await readFile(path))]);
    } catch {
      throw new CliError(`${path} is not UTF-8 text; several files are sent as text`);
    }
  }
  const bytes = new TextEncoder().encode(fileBundleText(files));
  if (bytes.length > IMPORT_INPUT_LIMIT) throw tooLarge(paths.join(', '), bytes.length);
  return { bytes, label: paths.join(' and ') };
}

const tooLarge = (what: string, size: number) => new CliError(`${what} is ${mib(size)}; the import takes at most ${mib(IMPORT_INPUT_LIMIT)}`);

/** A size for people. */
export const formatSize = (bytes: number): string => (bytes >= 1024 * 1024 ? mib(bytes) : bytes >= 1024 ? `${Math.round(bytes / 1024)} KiB` : `${bytes} B`);
