import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tempDir } from './local-servers.js';

const ROOT = resolve(import.meta.dirname, '../..');

// Records every module the process loads through import (a CommonJS package imported from an ES
// module included; a require inside CommonJS is not seen) into the file LOADED_LOG names.
const RECORDER = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) { appendFileSync(process.env.LOADED_LOG, url + '\\n'); return next(url, context); }`;

/** The URL of a built module of dist/ (`daemon/server.js`) as a string literal, for a script to import. */
export const built = (path: string): string => JSON.stringify(pathToFileURL(join(ROOT, 'dist', path)).href);

/**
 * Runs `script` (an ES module's text) in a node process of its own, with a folder of its own in
 * `process.env.DIR`, and answers the URLs of every module it loaded through import, one per
 * line. Fails with the process's output when it does not exit 0 or writes to stderr.
 */
export function modulesLoadedBy(script: string): string {
  const dir = tempDir('svc-loaded-');
  const log = join(dir, 'loaded.txt');
  const run = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { register } from 'node:module';\nregister('data:text/javascript,' + encodeURIComponent(${JSON.stringify(RECORDER)}));\n${script}`,
    ],
    { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: dir, DIR: dir, LOADED_LOG: log }, timeout: 60_000 },
  );
  try {
    if (run.status !== 0 || run.stderr !== '') throw new Error(`the script exited ${run.status}: ${run.stderr}${run.stdout}`);
    return readFileSync(log, 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
