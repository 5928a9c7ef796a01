import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SVC_BIN = fileURLToPath(new URL('../../bin/svc', import.meta.url));

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The CLI tests run `bin/svc`, which runs `dist/`: a build older than the sources would test
 * yesterday's CLI and pass. Throws naming the first source whose compiled file is missing or older.
 */
export function assertFreshBuild(dirs: readonly string[] = ['checks', 'cli', 'contract', 'importers']): void {
  for (const dir of dirs) {
    for (const entry of readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.d.ts')) continue;
      const source = join(entry.parentPath, entry.name);
      const compiled = join(ROOT, 'dist', relative(ROOT, source)).replace(/\.ts$/, '.js');
      let builtAt: number;
      try {
        builtAt = statSync(compiled).mtimeMs;
      } catch {
        throw new Error(`${relative(ROOT, compiled)} is missing: run npm run build before the CLI tests`);
      }
      if (builtAt < statSync(source).mtimeMs) {
        throw new Error(`${relative(ROOT, compiled)} is older than ${relative(ROOT, source)}: run npm run build before the CLI tests`);
      }
    }
  }
}

assertFreshBuild();

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built `svc` CLI as a process (no TTY), with only the environment given plus PATH. */
export function runSvc(args: string[], options: { env?: Record<string, string>; stdin?: string | Uint8Array; timeoutMs?: number } = {}): Promise<CliResult> {
  const child = spawn(process.execPath, [SVC_BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NO_COLOR: '1', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdin.end(options.stdin ?? '');
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`svc ${args.join(' ')} did not finish; stdout: ${stdout} stderr: ${stderr}`));
    }, options.timeoutMs ?? 20_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, stdout, stderr });
    });
  });
}
