import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkTypeNames } from '../../checks/index.js';
import { ROLES } from '../../contract/access.js';
import { IMPORT_SOURCES } from '../../contract/import-sources.js';
import { CHANNEL_TYPES } from '../../contract/notification-channels.js';
import { CHECK_STATES } from '../../daemon/runner/state-machine.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc, SVC_BIN } from '../support/cli.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestDaemon, type TestDaemon } from '../support/daemon.js';

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/** Runs a bash command line and returns its output and status. */
function bash(script: string, env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn('bash', ['-c', script], { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NO_COLOR: '1', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code: code ?? 1, stdout, stderr })));
}

const svcLine = (args: string) => `${quote(process.execPath)} ${quote(SVC_BIN)} ${args}`;

describe('svc conventions without a daemon', () => {
  it("shows the global flags in every subcommand's help", async () => {
    for (const args of [['checks', 'apply'], ['incidents', 'ack'], ['members', 'invite'], ['token', 'create'], ['login'], ['completion']]) {
      const help = await runSvc([...args, '--help']);
      expect(help.code).toBe(0);
      const globals = help.stdout.slice(help.stdout.indexOf('Global Options:'));
      for (const flag of ['--url', '--token', '--org', '--json', '--profile']) expect(globals, `${args.join(' ')} ${flag}`).toContain(flag);
    }
  });

  it('documents the exit codes in svc help exit-codes and in docs/cli.md', async () => {
    const res = await runSvc(['help', 'exit-codes']);
    expect(res.code).toBe(0);
    for (const code of ['0  success', '1  failure', '2  usage error', '3  partial']) expect(res.stdout).toContain(code);
    const docs = readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8');
    for (const code of ['| 0 |', '| 1 |', '| 2 |', '| 3 |']) expect(docs).toContain(code);
    const commandHelp = await runSvc(['help', 'checks', 'apply']);
    expect(commandHelp.stdout).toContain('Usage: svc checks apply');
    expect((await runSvc(['help', 'nothing'])).code).toBe(2);
  });

  it('exits 2 on usage errors that svc catches', async () => {
    for (const args of [
      ['nope'],
      ['checks', 'list', '--bogus'],
      ['completion', 'tcsh'],
      ['checks', 'list', '--limit', '0'],
      ['login', '--profile', 'bad name'],
    ]) {
      const res = await runSvc(args, { env: { SVC_URL: 'http://127.0.0.1:9', SVC_TOKEN: 'x' } });
      expect(res.code, args.join(' ')).toBe(2);
    }
  });

  // Three CLI processes and a dozen shells: slow on a busy machine.
  it('prints completion scripts that bash and fish run, and that zsh parses', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-completion-'));
    const scripts: Record<string, string> = {};
    for (const shell of ['bash', 'zsh', 'fish']) {
      const res = await runSvc(['completion', shell]);
      expect(res.code).toBe(0);
      scripts[shell] = join(dir, `svc.${shell}`);
      writeFileSync(scripts[shell], res.stdout);
    }
    const complete = (words: string[]) =>
      bash(
        `source ${quote(scripts.bash)}; COMP_WORDS=(${words.map(quote).join(' ')}); COMP_CWORD=${words.length - 1}; _svc; printf '%s\\n' "\${COMPREPLY[@]}"`,
      );
    expect((await complete(['svc', 'chec'])).stdout.split('\n')).toContain('checks');
    expect((await complete(['svc', 'checks', ''])).stdout.split('\n')).toEqual(expect.arrayContaining(['apply', 'export', 'list', 'get', 'delete']));
    expect((await complete(['svc', '--org', 'acme', 'checks', 'apply', '--p'])).stdout.split('\n')).toEqual(expect.arrayContaining(['--prune', '--profile']));
    expect((await complete(['svc', 'completion', ''])).stdout.trim().split('\n')).toEqual(['bash', 'zsh', 'fish']);
    expect((await complete(['svc', 'members', 's'])).stdout.trim()).toBe('set-role');
    // Where the values are a fixed set, completion offers them.
    const offered = async (words: string[]) => (await complete(words)).stdout.trim().split('\n');
    expect(await offered(['svc', 'checks', 'list', '--state', ''])).toEqual([...CHECK_STATES]);
    expect(await offered(['svc', '--org', 'acme', 'checks', 'list', '--type', ''])).toEqual([...checkTypeNames]);
    expect(await offered(['svc', 'channels', 'create', '--type', ''])).toEqual([...CHANNEL_TYPES]);
    expect(await offered(['svc', 'import', '--source', 'uptime'])).toEqual(['uptime-api-monitor', 'uptime-kuma', 'uptimerobot']);
    expect(await offered(['svc', 'import', '--source', ''])).toEqual(expect.arrayContaining([...IMPORT_SOURCES, 'gatus', 'uptimerobot']));
    expect(await offered(['svc', 'members', 'invite', 'bob@example.com', '--role', ''])).toEqual([...ROLES]);
    expect(await offered(['svc', 'members', 'set-role', 'ann@example.com', 'ad'])).toEqual(['admin']);

    const zsh = await bash(`zsh -n ${quote(scripts.zsh)}`);
    expect(zsh.code, zsh.stderr).toBe(0);
    const fish = await bash(`fish -c ${quote(`source ${quote(scripts.fish)}; complete -C 'svc incidents '; complete -C 'svc checks apply --pr'`)}`);
    expect(fish.code, fish.stderr).toBe(0);
    expect(fish.stdout).toMatch(/^ack\t/m);
    expect(fish.stdout).toMatch(/^resolve\t/m);
    expect(fish.stdout).toMatch(/^--prune\t/m);
    expect(fish.stdout).toMatch(/^--profile\t/m);
    const fishValues = await bash(`fish -c ${quote(`source ${quote(scripts.fish)}; complete -C 'svc checks list --state '`)}`);
    expect(
      fishValues.stdout
        .trim()
        .split('\n')
        .map((line) => line.split('\t')[0]),
    ).toEqual([...CHECK_STATES].sort());
  });
});

describe.each(DATABASE_KINDS)('svc conventions against a daemon [%s]', (kind) => {
  let daemon: TestDaemon;
  let token: string;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
    token = await daemon.adminToken();
    for (let i = 0; i < 40; i++) {
      const body = { name: `Check ${i}`, type: 'tcp', target: `host${i}.example.com:443`, labels: { batch: 'pipe' } };
      expect((await daemon.request('POST', '/orgs/default/checks', { token, body })).status).toBe(201);
    }
  });
  afterAll(() => daemon?.stop());

  it('exits 0 and says nothing when the reader of its output goes away', async () => {
    const env = { SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-pipe-')), SVC_URL: daemon.url, SVC_TOKEN: token };
    // `(exit 0)` reads nothing and is gone before svc writes: the write meets a closed pipe.
    const errors = join(env.SVC_CONFIG_DIR, 'stderr.txt');
    for (const reader of ['head -1', '(exit 0)']) {
      const res = await bash(
        `${svcLine('checks list')} 2>${quote(errors)} | ${reader} >/dev/null; code=\${PIPESTATUS[0]}; cat ${quote(errors)} >&2; exit $code`,
        env,
      );
      expect(res.code, `| ${reader}: ${res.stderr}`).toBe(0);
      expect(res.stderr).toBe('');
    }
  });

  it('maps a value the daemon refuses to exit code 2, like one svc refuses', async () => {
    const env = { SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-codes-')), SVC_URL: daemon.url, SVC_TOKEN: token };
    const byDaemon = await runSvc(['checks', 'list', '--type', 'gopher'], { env });
    expect(byDaemon.code).toBe(2);
    expect(byDaemon.stderr).toContain('unknown check type');
    const bySvc = await runSvc(['checks', 'list', '--label', 'nokey'], { env });
    expect(bySvc.code).toBe(2);
    const notFound = await runSvc(['checks', 'get', 'nope'], { env });
    expect(notFound.code).toBe(1);
  });

  it('token create defaults --org to the only organization, and asks for it among several', async () => {
    const env = { SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-token-')), SVC_URL: daemon.url, SVC_TOKEN: token };
    const created = await runSvc(['token', 'create', '--name', 'ci', '--json'], { env });
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ name: 'ci', org: 'default' });
    expect((await daemon.request('POST', '/orgs', { token, body: { slug: 'second', name: 'Second' } })).status).toBe(201);
    const ambiguous = await runSvc(['token', 'create', '--name', 'ci2'], { env });
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain('several organizations (default, second)');
    const chosen = await runSvc(['--org', 'second', 'token', 'create', '--name', 'ci3', '--json'], { env });
    expect(JSON.parse(chosen.stdout)).toMatchObject({ org: 'second' });
    const afterCommand = await runSvc(['token', 'create', '--name', 'ci4', '--org', 'second', '--json'], { env });
    expect(JSON.parse(afterCommand.stdout)).toMatchObject({ org: 'second' });
    expect((await daemon.request('DELETE', '/orgs/second', { token })).status).toBeLessThan(300);
  });

  it('keeps one saved sign-in per profile, and treats localhost and 127.0.0.1 as the same daemon', async () => {
    const other = await startTestDaemon('sqlite');
    try {
      await other.adminToken();
      const configDir = mkdtempSync(join(tmpdir(), 'svc-profiles-'));
      const env = { SVC_CONFIG_DIR: configDir };
      const port = new URL(daemon.url).port;
      const login = (args: string[]) => runSvc(['login', '--email', ADMIN_EMAIL, '--password-stdin', ...args], { env, stdin: `${ADMIN_PASSWORD}\n` });

      const first = await login(['--url', `http://127.0.0.1:${port}`, '--json']);
      expect(first.code, first.stderr).toBe(0);
      expect(JSON.parse(first.stdout)).toMatchObject({ profile: 'default' });
      const second = await login(['--url', other.url, '--profile', 'staging', '--json']);
      expect(second.code, second.stderr).toBe(0);
      expect(JSON.parse(second.stdout)).toMatchObject({ profile: 'staging' });
      expect(Object.keys(JSON.parse(readFileSync(join(configDir, 'credentials.json'), 'utf8')).profiles).sort()).toEqual(['default', 'staging']);

      // The saved token for 127.0.0.1 serves localhost too.
      const viaLocalhost = await runSvc(['whoami', '--url', `http://localhost:${port}/`], { env });
      expect(viaLocalhost.code, viaLocalhost.stderr).toBe(0);
      expect(viaLocalhost.stdout).toContain(ADMIN_EMAIL);

      // Each profile reaches its own daemon: the checks differ.
      const here = JSON.parse((await runSvc(['checks', 'list', '--json'], { env })).stdout);
      expect(here.length).toBeGreaterThanOrEqual(40);
      const there = JSON.parse((await runSvc(['checks', 'list', '--json', '--profile', 'staging'], { env })).stdout);
      expect(there).toEqual([]);
      const viaEnv = await runSvc(['whoami'], { env: { ...env, SVC_PROFILE: 'staging' } });
      expect(viaEnv.stdout).toContain(other.url);
      // A URL saved under another profile finds that profile's sign-in.
      const byUrl = await runSvc(['checks', 'list', '--json', '--url', other.url], { env });
      expect(JSON.parse(byUrl.stdout)).toEqual([]);

      const unknown = await runSvc(['whoami', '--profile', 'prod'], { env });
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('not signed in');

      expect((await runSvc(['logout', '--profile', 'staging'], { env })).code).toBe(0);
      expect(Object.keys(JSON.parse(readFileSync(join(configDir, 'credentials.json'), 'utf8')).profiles)).toEqual(['default']);
      expect((await runSvc(['whoami'], { env })).code).toBe(0);
    } finally {
      await other.stop();
    }
  });

  it('reads the one-sign-in credentials file of earlier versions as the default profile', async () => {
    const configDir = mkdtempSync(join(tmpdir(), 'svc-legacy-'));
    writeFileSync(join(configDir, 'credentials.json'), JSON.stringify({ url: daemon.url, token, email: ADMIN_EMAIL }));
    const res = await runSvc(['whoami', '--json'], { env: { SVC_CONFIG_DIR: configDir } });
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout).email).toBe(ADMIN_EMAIL);
  });
});
