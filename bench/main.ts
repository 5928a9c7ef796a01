import { spawnSync } from 'node:child_process';
import { writeFileSync, readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describeMachine, measureMachine } from './machine.js';

/** One benchmark: runs, prints its own table, returns its figures for bench/results.json. */
export type Benchmark = () => Promise<Record<string, unknown>>;

/** Every benchmark, by the name `npm run bench -- <name>` takes, with what it measures and its flags. Loaded lazily. */
const BENCHMARKS: Record<string, { about: string; flags?: Record<string, string>; load: () => Promise<{ run: Benchmark }> }> = {
  login: { about: '100 concurrent sign-ins at the default argon2id profile, and the session check', load: () => import('./login.js') },
  api: { about: 'the check list of 10,000 checks, and an authenticated GET against a bare route', load: () => import('./api.js') },
  import: {
    about: '10,000 monitors of each source: conversion, preview, apply, re-run, and the event loop meanwhile',
    flags: {
      'sources=a,b': 'only these sources',
      'databases=sqlite,postgres': 'only these databases',
      stalls: 'each apply under the profiler, and the code that held the event loop in its longest stalls',
    },
    load: () => import('./import.js'),
  },
  runner: {
    about: "the engine: CPU per run (and Uptime Kuma's per beat), the highest rate, replicas, the coordinator's ceiling",
    flags: {
      'only=cost,kuma,steady,rate,processes,replicas,uptime,coordinator': 'only these parts',
      quick: 'shorter windows',
      'seconds=N': 'the length of the measured windows',
      'rates=N,N': 'the rates (runs a second) the rate part tries',
      'probe-threads=N': "HTTP and TCP runs on N probe threads (the daemon's default when absent)",
      profile: "the cost part's daemon under the CPU profiler, with its top frames",
      'checks=N': 'checks of the coordinator part',
      'kuma-dir=PATH': 'a prepared Uptime Kuma 2.5.3 tree (or KUMA_DIR; docs/import.md): its CPU per beat beside the cost part',
    },
    load: () => import('./runner.js'),
  },
  probe: {
    about: 'CPU per HTTP probe run in one process (status only, with a keyword and JSON), beside bare undici requests',
    load: () => import('./probe-http.js'),
  },
  'status-page': { about: 'a public status page of 50 checks and 90 days', load: () => import('./status-page.js') },
  notify: { about: '1,000 incidents at once: their notifications delivered, alone and beside a channel that never answers', load: () => import('./notify.js') },
  dashboard: { about: 'first paint of the checks list and the overview with 10,000 checks, in Chromium', load: () => import('./dashboard.js') },
  retention: { about: 'retention at 10 million results', flags: { 'results=N': 'the results to store first' }, load: () => import('./retention.js') },
  'check-list': { about: 'the check list with state and sparklines, 100 checks', load: () => import('./check-list.js') },
};

const RESULTS = fileURLToPath(new URL('../../bench/results.json', import.meta.url));

const HELP = `Usage: npm run bench [-- <name>... [--flag=value...]]

Runs the benchmarks named (all when none is), each in a process of its own, and writes their
figures to bench/results.json. Every table starts with the machine it ran on: a fixed
JavaScript workload's time, the CPU of one timer wake-up and the load average, so figures of
different machines can be put side by side. Those with a database also run on PostgreSQL when SVC_TEST_PG_URL (or
127.0.0.1:5432) answers.

${Object.entries(BENCHMARKS)
  .map(([name, { about, flags }]) =>
    [`  ${name.padEnd(12)} ${about}`, ...Object.entries(flags ?? {}).map(([flag, what]) => `      --${flag}\n          ${what}`)].join('\n'),
  )
  .join('\n')}
`;

/** The flags given that none of the named benchmarks takes. */
function unknownFlags(names: string[], flags: string[]): string[] {
  const taken = new Set(names.flatMap((name) => Object.keys(BENCHMARKS[name].flags ?? {}).map((flag) => flag.split('=')[0])));
  return flags.filter((flag) => !taken.has(flag.slice(2).split('=')[0]));
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(HELP);
    return;
  }
  // `--name=value` flags go to the benchmarks themselves (see each one).
  const requested = args.filter((arg) => !arg.startsWith('--'));
  const flags = args.filter((arg) => arg.startsWith('--'));
  const unknown = requested.filter((name) => !(name in BENCHMARKS));
  if (unknown.length > 0) {
    process.stderr.write(`unknown benchmark ${unknown.join(', ')}; choose from ${Object.keys(BENCHMARKS).join(', ')} (--help)\n`);
    process.exit(2);
  }
  const names = requested.length > 0 ? requested : Object.keys(BENCHMARKS);
  const strange = unknownFlags(names, flags);
  if (strange.length > 0) {
    process.stderr.write(`${strange.join(', ')}: not a flag of ${names.join(', ')} (--help lists each benchmark's flags)\n`);
    process.exit(2);
  }
  if (names.length > 1) {
    // Each in a process of its own, so that one's memory and warmed-up code do not count in the next.
    for (const name of names) {
      const own = flags.filter((flag) => unknownFlags([name], [flag]).length === 0);
      const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), name, ...own], { stdio: 'inherit' });
      if (child.status !== 0) process.exit(child.status ?? 1);
    }
    return;
  }
  const [name] = names;
  const machine = await measureMachine();
  process.stdout.write(`\n== ${name} ==\n${describeMachine(machine)}\n`);
  const { run } = await BENCHMARKS[name].load();
  const figures = { ...(await run()), machine, measuredAt: new Date().toISOString() };
  const results: Record<string, unknown> = existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, 'utf8')) : {};
  writeFileSync(RESULTS, `${JSON.stringify({ ...results, [name]: figures }, null, 2)}\n`);
  process.stdout.write(`\nfigures written to bench/results.json\n`);
}

await main();
