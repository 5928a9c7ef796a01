import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'undici';
import { validateCheck, type CheckDefinition } from '../checks/index.js';
import { createEgressPolicy } from '../probes/egress.js';
import { runProbe } from '../probes/run-probe.js';
import type { Benchmark } from './main.js';
import { percentile } from './runner-setup.js';

// CPU per HTTP check: runs of the http probe (through runProbe, as the runner calls it) against
// a cheap target in another process, so that the CPU counted here is the probe's alone.

const TARGET = `
  const server = require('node:http').createServer((request, response) => response.end('{"status":"ok"}'));
  server.keepAliveTimeout = 5000;
  server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));
`;

async function startTarget(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['-e', TARGET], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) => child.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())));
  return { child, url: `http://127.0.0.1:${port}/health` };
}

/** How many turns each case gets. */
const ROUNDS = 6;

/** The middle value (the upper of the two middle ones). */
const median = (values: number[]): number =>
  percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );

interface Figure {
  runs: number;
  cpuMicrosPerRun: number;
  runsPerSecond: number;
}

/** Runs `once` `runs` times, `concurrency` at a time, and measures this process's CPU. */
async function measure(runs: number, concurrency: number, once: () => Promise<unknown>): Promise<Figure> {
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < runs) await once();
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return { runs, cpuMicrosPerRun: Math.round((used.user + used.system) / runs), runsPerSecond: Math.round(runs / seconds) };
}

function check(url: string, config: Record<string, unknown>): CheckDefinition {
  const validation = validateCheck({ name: 'bench', type: 'http', target: url, config });
  if (!validation.ok) throw new Error(JSON.stringify(validation.issues));
  return validation.check;
}

export const run: Benchmark = async () => {
  const { child, url } = await startTarget();
  const egress = createEgressPolicy({ denyPrivate: false });
  const plain = check(url, {});
  const withKeyword = check(url, { keyword: { value: 'ok' } });
  const withAssertions = check(url, { keyword: { value: 'ok' }, jsonQueries: [{ expression: 'status', expected: 'ok' }] });
  const probe = (definition: CheckDefinition) => async () => {
    const result = await runProbe(definition, { egress });
    if (result.status !== 'up') throw new Error(`probe failed: ${result.message}`);
  };
  const kept = new Agent({ pipelining: 1 });
  const keptAlive = async () => (await request(url, { dispatcher: kept })).body.dump();
  const fresh = async () => {
    const agent = new Agent({ pipelining: 1 });
    await (await request(url, { dispatcher: agent })).body.dump();
    await agent.destroy();
  };
  // Each case runs in turns with the others, a part of its runs per round, and its median round
  // counts: run one after another, the first cases pay for compiling what the later ones reuse,
  // and a machine that slows down for a minute shows as a slower case.
  const cases: Record<string, { runs: number; concurrency: number; once: () => Promise<unknown> }> = {
    probeSequential: { runs: 3_000, concurrency: 1, once: probe(plain) },
    probeConcurrent100: { runs: 5_000, concurrency: 100, once: probe(plain) },
    probeWithKeyword: { runs: 3_000, concurrency: 1, once: probe(withKeyword) },
    probeWithKeywordAndJson: { runs: 3_000, concurrency: 1, once: probe(withAssertions) },
    baselineUndiciKeepAlive: { runs: 3_000, concurrency: 1, once: keptAlive },
    baselineUndiciNewConnection: { runs: 3_000, concurrency: 1, once: fresh },
  };
  try {
    for (const { once } of Object.values(cases)) await measure(500, 10, once); // warm-up: JIT, module loading
    const rounds: Record<string, Figure[]> = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, { runs, concurrency, once }] of Object.entries(cases)) rounds[name].push(await measure(Math.round(runs / ROUNDS), concurrency, once));
    }
    const figures = Object.fromEntries(
      Object.entries(rounds).map(([name, measured]): [string, Figure] => [
        name,
        {
          runs: Math.round(cases[name].runs / ROUNDS) * ROUNDS,
          cpuMicrosPerRun: median(measured.map((m) => m.cpuMicrosPerRun)),
          runsPerSecond: median(measured.map((m) => m.runsPerSecond)),
        },
      ]),
    );
    process.stdout.write(`case                          runs   CPU µs/run   runs/s   (medians of ${ROUNDS} rounds in turns)\n`);
    for (const [name, figure] of Object.entries(figures)) {
      process.stdout.write(
        `${name.padEnd(30)}${String(figure.runs).padStart(4)}   ${String(figure.cpuMicrosPerRun).padStart(10)}   ${String(figure.runsPerSecond).padStart(6)}\n`,
      );
    }
    return figures;
  } finally {
    await kept.destroy();
    child.kill();
  }
};
