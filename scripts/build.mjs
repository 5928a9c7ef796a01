#!/usr/bin/env node
// Builds the daemon, the CLI and the dashboard into dist/, but only when a source file is newer
// than the last build, so `npm start` on a fresh build starts at once. `--force` always builds.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const stamp = join(root, 'dist', '.build-stamp');
const SOURCES = [
  'bench',
  'checks',
  'cli',
  'contract',
  'daemon',
  'dashboard',
  'importers',
  'probes',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'scripts',
];

/** The newest modification time under a path, in milliseconds. */
function newest(path) {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let latest = stats.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules') continue;
    latest = Math.max(latest, newest(join(path, entry)));
  }
  return latest;
}

const force = process.argv.includes('--force');
const built = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
const changed = Math.max(...SOURCES.map((source) => newest(join(root, source))));
if (!force && built >= changed) {
  process.stderr.write('build: dist/ is up to date\n');
  process.exit(0);
}

const steps = [
  ['tsc', '-p', 'tsconfig.json'],
  ['tsc', '-p', 'dashboard/tsconfig.json'],
  ['vite', 'build', '--config', 'dashboard/vite.config.ts', '--logLevel', 'warn'],
  ['node', 'scripts/bundle-conversion-worker.mjs'],
];
for (const [tool, ...args] of steps) {
  const bin = tool === 'node' ? process.execPath : join(root, 'node_modules', '.bin', tool);
  const result = spawnSync(bin, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write(`build: ${tool} ${args.join(' ')} failed\n`);
    process.exit(result.status ?? 1);
  }
}
writeFileSync(stamp, `${new Date().toISOString()}\n`);
