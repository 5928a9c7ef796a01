import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { describeMachine, measureMachine, workload } from '../../bench/machine.js';

// `npm run bench` as an operator types it: what it offers, and what it refuses before it measures anything.
const MAIN = fileURLToPath(new URL('../../dist/bench/main.js', import.meta.url));
const bench = (...args: string[]) => spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8', timeout: 30_000 });

describe('npm run bench', () => {
  it('--help names every benchmark and the flags each takes, and runs none', () => {
    const result = bench('--help');
    expect(result.status).toBe(0);
    for (const name of ['login', 'api', 'import', 'runner', 'status-page', 'notify', 'dashboard', 'retention', 'check-list', 'probe']) {
      expect(result.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
    }
    expect(result.stdout).toContain('--sources=a,b');
    expect(result.stdout).toContain('--only=cost,');
    expect(result.stdout).not.toContain('==');
  });

  it('refuses a flag none of the named benchmarks takes, and an unknown benchmark, with exit 2', () => {
    const flag = bench('import', '--only=cost');
    expect(flag.status).toBe(2);
    expect(flag.stderr).toContain('--only=cost: not a flag of import');
    expect(flag.stdout).toBe('');
    const name = bench('imports');
    expect(name.status).toBe(2);
    expect(name.stderr).toContain('unknown benchmark imports');
  });

  it('describes the machine by a fixed workload, the same work on every run, and the CPU of a wake-up', async () => {
    expect(workload()).toBe(workload());
    const machine = await measureMachine();
    expect(machine.workloadMs).toBeGreaterThan(0);
    expect(machine.wakeUpUs).toBeGreaterThan(0);
    expect(machine.cores).toBeGreaterThan(0);
    expect(describeMachine(machine)).toMatch(
      /^machine: fixed workload \d+ ms \(lower is faster\), a timer's wake-up \d+ µs of CPU, \d+ cores \(.+\), load average [\d.]+$/,
    );
  });
});
