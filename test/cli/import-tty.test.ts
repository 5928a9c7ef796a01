import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLargeDatabase } from '../fixtures/import/uptime-kuma/generate-large.js';
import { SVC_BIN } from '../support/cli.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';
import { checkCount, gatusConfig } from '../daemon/import/helpers.js';
import { hasTool } from '../support/required-tool.js';

// util-linux `script` gives the CLI a real terminal, so the confirmation and the progress line
// are exercised as a person sees them. Without it the suite says why and is skipped.
const SCRIPT = '/usr/bin/script';
const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/** Runs `svc` on a pseudo-terminal; `answer` is typed once `prompt` has appeared. */
function runOnTerminal(
  args: string[],
  env: Record<string, string>,
  dialogue?: { prompt: string; answer: string; before?: () => Promise<unknown> },
): Promise<{ code: number; output: string }> {
  // A pseudo-terminal made from a pipe has no size; give it one, as a real terminal has.
  const command = `stty cols 160 rows 50; ${[process.execPath, SVC_BIN, ...args].map(quote).join(' ')}`;
  const child = spawn(SCRIPT, ['-qfec', command, '/dev/null'], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', TERM: 'xterm', NO_COLOR: '1', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  let answered = false;
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    if (dialogue && !answered && output.includes(dialogue.prompt)) {
      answered = true;
      // `before` runs while the prompt waits: a change made then lands between preview and apply.
      void Promise.resolve(dialogue.before?.()).then(() => child.stdin.write(dialogue.answer));
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`svc ${args.join(' ')} did not finish on the terminal; output: ${output}`));
    }, 25_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, output });
    });
  });
}

describe.skipIf(!hasTool(SCRIPT, 'bsdutils', 'driving the CLI on a terminal'))('svc import on a terminal', () => {
  let daemon: TestDaemon;
  let env: Record<string, string>;
  let dir: string;
  beforeAll(async () => {
    daemon = await startTestDaemon('sqlite');
    env = { SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-cli-tty-')), SVC_URL: daemon.url, SVC_TOKEN: await daemon.adminToken() };
    dir = mkdtempSync(join(tmpdir(), 'svc-cli-tty-input-'));
    writeFileSync(join(dir, 'gatus.yaml'), gatusConfig());
  });
  afterAll(() => daemon.stop());

  it('asks before applying: "n" writes nothing, "y" imports', async () => {
    const args = ['import', '--source', 'gatus', '--file', join(dir, 'gatus.yaml')];
    const declined = await runOnTerminal(args, env, { prompt: 'Import into default: create 2, update 0?', answer: 'n' });
    expect(declined.code, declined.output).toBe(0);
    expect(declined.output).toContain('Nothing imported.');
    expect(await checkCount(daemon)).toBe(0);

    const accepted = await runOnTerminal(args, env, { prompt: 'Import into default: create 2, update 0?', answer: 'y' });
    expect(accepted.code, accepted.output).toBe(0);
    expect(accepted.output).toContain('imported into default: create 2, update 0, 0 unchanged, 1 skipped');
    expect(await checkCount(daemon)).toBe(2);
  }, 90_000);

  it('applies what the preview showed or nothing: a change in between answers 409 and the CLI says so', async () => {
    const file = join(dir, 'late.yaml');
    writeFileSync(file, 'endpoints:\n  - name: Late\n    url: https://late.example.com\n    conditions: ["[STATUS] == 200"]\n');
    const count = await checkCount(daemon);
    const makeByHand = () =>
      daemon.request('POST', '/orgs/default/checks', { token: env.SVC_TOKEN, body: { name: 'Late', type: 'http', target: 'https://hand.example.com' } });
    const res = await runOnTerminal(['import', '--source', 'gatus', '--file', file], env, {
      prompt: 'Import into default: create 1, update 0?',
      answer: 'y',
      before: makeByHand,
    });
    expect(res.code, res.output).toBe(1);
    expect(res.output).toContain('changed after the preview');
    expect(res.output).toContain('nothing was imported');
    expect(await checkCount(daemon)).toBe(count + 1);
    expect((await daemon.request('GET', '/orgs/default/checks/late', { token: env.SVC_TOKEN })).body.target).toBe('https://hand.example.com');
  }, 60_000);

  it('shows progress on standard error for a large input', async () => {
    const file = join(dir, 'large.db');
    writeFileSync(file, await buildLargeDatabase(3000));
    const res = await runOnTerminal(['import', '--source', 'uptime-kuma', '--file', file, '--local'], env);
    expect(res.code, res.output.slice(-2000)).toBe(0);
    expect(res.output).toMatch(/reading .*large\.db: 3000\/3000/);
    expect(res.output).toContain('would create 2970');
  }, 60_000);
});
