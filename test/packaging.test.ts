import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freePort } from './support/local-servers.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const inCi = process.env.CI === 'true';
const has = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
const containerEngine = has('docker') && spawnSync('docker', ['info'], { stdio: 'ignore' }).status === 0;

describe('packaging', () => {
  it.runIf(has('systemd-analyze') || inCi)('ships a systemd unit that systemd-analyze verifies', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-unit-'));
    // verify checks that ExecStart exists: point it at this checkout's svc.
    const unit = readFileSync(join(ROOT, 'packaging', 'svc.service'), 'utf8').replace('/usr/local/bin/svc', join(ROOT, 'bin', 'svc'));
    writeFileSync(join(dir, 'svc.service'), unit);
    const result = spawnSync('systemd-analyze', ['verify', join(dir, 'svc.service')], { encoding: 'utf8' });
    expect(result.error).toBeUndefined();
    expect(result.stderr.trim()).toBe('');
    expect(result.status).toBe(0);
  });

  it("starts the daemon with bin/svc's Node flags every way: its first line, npm start and the Dockerfile", () => {
    const shebang = readFileSync(join(ROOT, 'bin', 'svc'), 'utf8').split('\n', 1)[0];
    const flags = /^#!\/usr\/bin\/env -S node((?: --\S+)+)$/.exec(shebang)?.[1].trim();
    // A young generation of 4 MiB a half in every isolate (see bin/svc).
    expect(flags).toBe('--max-semi-space-size=4');
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(scripts.start).toMatch(new RegExp(`exec node ${flags} bin/svc daemon$`));
    const cmd = /^CMD (.+)$/m.exec(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'))?.[1];
    expect(JSON.parse(cmd!)).toEqual(['node', ...flags!.split(' '), 'bin/svc', 'daemon']);
  });

  it.runIf(containerEngine)(
    'builds the container image',
    () => {
      const result = spawnSync('docker', ['build', '-q', '-t', 'svc:test', ROOT], { encoding: 'utf8', timeout: 600_000 });
      expect(result.status, result.stderr).toBe(0);
    },
    600_000,
  );

  it('npm pack gives a package that npm install -g turns into a working svc', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-pack-'));
    // The package carries the built dist/ (npm test builds first), never the sources or tests.
    const pack = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8' });
    expect(pack.status, pack.stderr).toBe(0);
    const [info] = JSON.parse(pack.stdout) as [{ filename: string; files: { path: string }[] }];
    const paths = info.files.map((file) => file.path);
    expect(paths).toEqual(expect.arrayContaining(['bin/svc', 'dist/cli/main.js', 'dist/daemon/main.js', 'dist/dashboard/index.html']));
    expect(paths.some((path) => path.startsWith('test/') || path.startsWith('daemon/'))).toBe(false);
    // Benchmarks are for this repository, not for the people who install the package.
    expect(paths.filter((path) => path.startsWith('dist/bench/'))).toEqual([]);

    const prefix = join(dir, 'prefix');
    // Scripts off: better-sqlite3 would compile its native module for minutes. Its binary is
    // copied from this checkout's build instead (same Node, same machine), as an install with
    // --allow-scripts=better-sqlite3 (docs/operations.md) would have built it.
    const install = spawnSync(
      'npm',
      ['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', join(dir, info.filename)],
      { encoding: 'utf8', timeout: 240_000 },
    );
    expect(install.status, install.stderr).toBe(0);
    const installed = join(prefix, 'lib', 'node_modules', 'svc', 'node_modules', 'better-sqlite3', 'build');
    cpSync(join(ROOT, 'node_modules', 'better-sqlite3', 'build'), installed, { recursive: true });
    const svc = join(prefix, 'bin', 'svc');
    expect(spawnSync(svc, ['--version'], { encoding: 'utf8' }).stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);

    const port = await freePort();
    const daemon = spawn(svc, ['daemon'], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: dir, SVC_LISTEN: `127.0.0.1:${port}`, SVC_DB_URL: `sqlite:${join(dir, 'svc.db')}` },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let banner = '';
    daemon.stderr!.on('data', (chunk: Buffer) => (banner += chunk.toString()));
    try {
      let status = 0;
      for (let tries = 0; tries < 100 && status !== 200; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        status = await fetch(`http://127.0.0.1:${port}/api/v1/ready`).then(
          (r) => r.status,
          () => 0,
        );
      }
      expect(status).toBe(200);
      const page = await fetch(`http://127.0.0.1:${port}/`);
      expect(await page.text()).toContain('<div id="app">');
      // An installed svc is on the PATH: the banner names the command, not the checkout's ./bin/svc.
      expect(banner).toContain(`: svc login --url http://127.0.0.1:${port}`);
      expect(banner).not.toContain('./bin/svc');
    } finally {
      daemon.kill('SIGTERM');
    }
  }, 300_000);
});

describe('npm start', () => {
  // A supervisor (systemd, a container runtime, a terminal) stops `npm start` with a signal:
  // the daemon must receive it and stop, not linger orphaned.
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'passes %s on to the daemon, which stops',
    async (signal) => {
      const dir = mkdtempSync(join(tmpdir(), 'svc-start-'));
      const port = await freePort();
      const npm = spawn('npm', ['start', '--silent'], {
        cwd: ROOT,
        env: { ...process.env, SVC_LISTEN: `127.0.0.1:${port}`, SVC_DB_URL: `sqlite:${join(dir, 'svc.db')}`, SVC_LOG_LEVEL: 'warn' },
        stdio: 'ignore',
      });
      const exited = new Promise<void>((resolve) => npm.once('exit', () => resolve()));
      const ready = () =>
        fetch(`http://127.0.0.1:${port}/api/v1/ready`).then(
          (r) => r.status,
          () => 0,
        );
      let status = 0;
      for (let tries = 0; tries < 150 && status !== 200; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        status = await ready();
      }
      expect(status).toBe(200);
      npm.kill(signal);
      await exited;
      // npm is gone; the daemon that answered on the port must be gone too.
      let after = 200;
      for (let tries = 0; tries < 50 && after !== 0; tries += 1) {
        after = await ready();
        if (after !== 0) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(after).toBe(0);
    },
    60_000,
  );
});
