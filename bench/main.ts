import { writeFileSync, readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One benchmark: runs, prints its own table, returns its figures for bench/results.json. */
export type Benchmark = () => Promise<Record<string, unknown>>;

/** Every benchmark, by the name `npm run bench -- <name>` takes. Loaded lazily. */
const BENCHMARKS: Record<string, () => Promise<{ run: Benchmark }>> = {
  api: () => import('./api.js'),
  import: () => import('./import.js'),
  login: () => import('./login.js'),
};

const RESULTS = fileURLToPath(new URL('../../bench/results.json', import.meta.url));

async function main(): Promise<void> {
  const requested = process.argv.slice(2);
  const unknown = requested.filter((name) => !(name in BENCHMARKS));
  if (unknown.length > 0) {
    process.stderr.write(`unknown benchmark ${unknown.join(', ')}; choose from ${Object.keys(BENCHMARKS).join(', ')}\n`);
    process.exit(2);
  }
  const names = requested.length > 0 ? requested : Object.keys(BENCHMARKS);
  const results: Record<string, unknown> = existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, 'utf8')) : {};
  for (const name of names) {
    process.stdout.write(`\n== ${name} ==\n`);
    const { run } = await BENCHMARKS[name]();
    results[name] = { ...(await run()), measuredAt: new Date().toISOString() };
    writeFileSync(RESULTS, JSON.stringify(results, null, 2) + '\n');
  }
  process.stdout.write(`\nfigures written to bench/results.json\n`);
}

await main();
