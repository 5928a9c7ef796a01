import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from '../support/cli.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';
import { hasTool } from '../support/required-tool.js';

const hasOathtool = hasTool('/usr/bin/oathtool', 'oathtool', 'the reference TOTP codes');

/** The current code from Debian's oathtool, or from otpauth where it is not installed (never under CI). */
function currentCode(secret: string): string {
  if (!hasOathtool) return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate();
  return execFileSync('/usr/bin/oathtool', ['--totp', '-b', secret], { encoding: 'utf8' }).trim();
}

describe('svc account 2fa', () => {
  let daemon: TestDaemon;
  let env: Record<string, string>;
  const email = 'cli-2fa@example.com';
  const password = 'cli 2fa password';

  beforeAll(async () => {
    daemon = await startTestDaemon('sqlite');
    await daemon.register(email, password);
    env = { SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-cli-2fa-')), SVC_URL: daemon.url };
    const login = await runSvc(['login', '--email', email, '--password-stdin'], { env, stdin: `${password}\n` });
    expect(login.code).toBe(0);
  });
  afterAll(() => daemon.stop());

  it('enables with a QR code in the terminal, then signs in with a recovery code, then disables', async () => {
    const shown = await runSvc(['account', '2fa', 'enable'], { env });
    expect(shown.stderr).toBe('');
    expect(shown.code).toBe(0);
    // Drawn with block characters, readable by a phone from the terminal.
    expect(shown.stdout).toMatch(/[█▀▄]{7}/);
    const secret = /enter this secret: ([A-Z2-7]+)/.exec(shown.stdout)![1];
    expect(shown.stdout).toContain('svc account 2fa enable --code');

    const confirmed = await runSvc(['account', '2fa', 'enable', '--code', currentCode(secret), '--json'], { env });
    expect(confirmed.code).toBe(0);
    const { recoveryCodes } = JSON.parse(confirmed.stdout);
    expect(recoveryCodes).toHaveLength(10);
    expect(JSON.parse((await runSvc(['whoami', '--json'], { env })).stdout).twoFactorEnabled).toBe(true);

    expect((await runSvc(['logout'], { env })).code).toBe(0);
    const noCode = await runSvc(['login', '--email', email, '--password-stdin'], { env, stdin: `${password}\n` });
    expect(noCode.code).toBe(2);
    expect(noCode.stderr).toContain('--code');
    const login = await runSvc(['login', '--email', email, '--password-stdin', '--code', recoveryCodes[0]], { env, stdin: `${password}\n` });
    expect(login.stderr).toBe('');
    expect(login.code).toBe(0);

    const wrong = await runSvc(['account', '2fa', 'disable', '--password-stdin'], { env, stdin: 'not the password\n' });
    expect(wrong.code).toBe(1);
    const off = await runSvc(['account', '2fa', 'disable', '--password-stdin'], { env, stdin: `${password}\n` });
    expect(off.code).toBe(0);
    expect(off.stdout).toContain('two-factor sign-in is off');
    expect(JSON.parse((await runSvc(['whoami', '--json'], { env })).stdout).twoFactorEnabled).toBe(false);
  });

  it('disable without a terminal names the flag it needs', async () => {
    const res = await runSvc(['account', '2fa', 'disable'], { env });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--code');
  });
});
