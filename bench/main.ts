import { spawnSync } from 'node:child_process';
import { writeFileSync, readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One benchmark: runs, prints its own table, returns its figures for bench/results.json. */
export type Benchmark = () => Promise<Record<string, unknown>>;

/** Every benchmark, by the name `npm run bench -- <name>` takes. Loaded lazily. */
const BENCHMARKS: Record<string, () => Promise<{ run: Benchmark }>> = {
  api: () => import('./api.js'),
  import: () => import('./import.js'),
  login: () => import('./login.js'),
  runner: () => import('./runner.js'),
  'status-page': () => import('./status-page.js'),
  notify: () => import('./notify.js'),
  dashboard: () => import('./dashboard.js'),
  retention: () => import('./retention.js'),
  'check-list': () => import('./check-list.js'),
};

const RESULTS = fileURLToPath(new URL('../../bench/results.json', import.meta.url));

async function main(): Promise<void> {
  // `--name=value` flags go to the benchmarks themselves (see each one).
  const requested = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
  const flags = process.argv.slice(2).filter((arg) => arg.startsWith('--'));
  const unknown = requested.filter((name) => !(name in BENCHMARKS));
  if (unknown.length > 0) {
    process.stderr.write(`unknown benchmark ${unknown.join(', ')}; choose from ${Object.keys(BENCHMARKS).join(', ')}\n`);
    process.exit(2);
  }
  const names = requested.length > 0 ? requested : Object.keys(BENCHMARKS);
  if (names.length > 1) {
    // Each in a process of its own, so that one's memory and warmed-up code do not count in the next.
    for (const name of names) {
      const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), name, ...flags], { stdio: 'inherit' });
      if (child.status !== 0) process.exit(child.status ?? 1);
    }
    return;
  }
  const [name] = names;
  process.stdout.write(`\n== ${name} ==\n`);
  const { run } = await BENCHMARKS[name]();
  const figures = { ...(await run()), measuredAt: new Date().toISOString() };
  const results: Record<string, unknown> = existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, 'utf8')) : {};
  writeFileSync(RESULTS, `${JSON.stringify({ ...results, [name]: figures }, null, 2)}\n`);
  process.stdout.write(`\nfigures written to bench/results.json\n`);
}

await main();
