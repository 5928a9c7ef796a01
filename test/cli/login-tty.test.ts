import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SVC_BIN } from '../support/cli.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';

// util-linux `script` gives the CLI a real terminal, so the prompts run as a person sees them.
const SCRIPT = '/usr/bin/script';
const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/** Runs `svc` on a pseudo-terminal and types each answer once its prompt has appeared (after the previous answer). */
function converse(args: string[], env: Record<string, string>, dialogue: { prompt: string; answer: string }[]): Promise<{ code: number; output: string }> {
  const command = `stty cols 160 rows 50; ${[process.execPath, SVC_BIN, ...args].map(quote).join(' ')}`;
  const child = spawn(SCRIPT, ['-qfec', command, '/dev/null'], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', TERM: 'xterm', NO_COLOR: '1', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  let from = 0;
  let step = 0;
  const advance = () => {
    // Several prompts may arrive in one chunk: answer each in turn.
    for (let next = dialogue[step]; next; next = dialogue[step]) {
      const at = output.indexOf(next.prompt, from);
      if (at < 0) return;
      from = at + next.prompt.length;
      step++;
      if (next.answer) child.stdin.write(next.answer);
    }
  };
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    advance();
  });
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`svc ${args.join(' ')} did not finish at step ${step}; output: ${output}`));
    }, 25_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, output });
    });
  });
}

describe.skipIf(!existsSync(SCRIPT) && process.env.CI !== 'true').each(DATABASE_KINDS)('svc login on a terminal [%s]', (kind) => {
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
  });
  afterAll(() => daemon?.stop());

  it('asks again for a too-short new password, and for it twice, until both agree', async () => {
    const env = { SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-login-tty-')), SVC_URL: daemon.url };
    const res = await converse(['login', '--email', 'admin@svc.local'], env, [
      { prompt: 'Password', answer: 'svc-admin\r' },
      { prompt: 'New password (at least 8 characters)', answer: 'short\r' },
      { prompt: 'must be at least 8 characters; try again', answer: '' },
      { prompt: 'New password (at least 8 characters)', answer: 'first-new-password\r' },
      { prompt: 'The new password again', answer: 'other-new-password\r' },
      { prompt: 'the two passwords differ; try again', answer: '' },
      { prompt: 'New password (at least 8 characters)', answer: 'final-new-password\r' },
      { prompt: 'The new password again', answer: 'final-new-password\r' },
    ]);
    expect(res.code, res.output).toBe(0);
    expect(res.output).toContain('signed in to');
    expect(await daemon.login('admin@svc.local', 'final-new-password')).toBeTruthy();
    const old = await daemon.request('POST', '/auth/login', { body: { email: 'admin@svc.local', password: 'first-new-password' } });
    expect(old.status).toBe(401);
  });
});
