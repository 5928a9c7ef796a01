import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, requireProgram } from '../support/local-servers.js';
import { expectTimeoutTearsDown, probeCheck, runCheck, startSilentListener, type SilentListener } from '../support/probe-runs.js';
import { startPrivateSshd, type PrivateSshd } from '../support/private-sshd.js';

const binary = requireProgram('/usr/sbin/sshd');

const ssh = (target: string, config: Record<string, unknown> = {}, timeoutMs = 8000) =>
  ({ name: 'bastion', type: 'ssh', target, config, thresholds: { timeoutMs } }) as const;

describe.skipIf(!binary.ok)('ssh probe against a private OpenSSH server', () => {
  let server: PrivateSshd;
  let target: string;
  beforeAll(async () => {
    server = await startPrivateSshd();
    target = `127.0.0.1:${server.port}`;
  });
  afterAll(() => server?.stop());

  it('is up with the banner when no user is set', async () => {
    const result = await runCheck(probeCheck(ssh(target)));
    expect(result.status).toBe('up');
    expect(result.message).toMatch(/^SSH-2\.0-OpenSSH_/);
  });

  it('is down when a command is set without a user to run it as', async () => {
    expect(await runCheck(probeCheck(ssh(target, { command: 'uptime' })))).toMatchObject({
      status: 'down',
      message: 'running a command needs a username',
    });
  });

  it('signs in with the key and judges the exit code of the command', async () => {
    const key = { privateKey: server.privateKey };
    const user = server.username;
    expect(await runCheck(probeCheck(ssh(target, { username: user }), key))).toMatchObject({
      status: 'up',
      message: `signed in as ${user}`,
    });
    expect(await runCheck(probeCheck(ssh(target, { username: user, command: 'exit 3', expectedExitCode: 3 }), key))).toMatchObject({
      status: 'up',
      message: 'the command exited with 3',
    });
    expect(await runCheck(probeCheck(ssh(target, { username: user, command: 'true', expectedExitCode: 1 }), key))).toMatchObject({
      status: 'down',
      message: 'the command exited with 0, expected 1',
    });
  });

  it('is down naming the user when the key or the password is wrong, with no secret in the message', async () => {
    const user = server.username;
    const stranger = await runCheck(probeCheck(ssh(target, { username: user }), { privateKey: server.strangerKey }));
    expect(stranger).toMatchObject({ status: 'down', message: `authentication failed for user "${user}"` });
    const password = 'not-the-password-9931';
    const wrong = await runCheck(probeCheck(ssh(target, { username: user }), { password }), [password]);
    expect(wrong).toMatchObject({ status: 'down', message: `authentication failed for user "${user}"` });
  });
});

describe('ssh probe, refused and timeout', () => {
  let listener: SilentListener;
  beforeAll(async () => {
    listener = await startSilentListener();
  });
  afterAll(() => listener.close());

  it('is down when nothing listens', async () => {
    const port = await freePort();
    expect(await runCheck(probeCheck(ssh(`127.0.0.1:${port}`)))).toMatchObject({
      status: 'down',
      message: `connect ECONNREFUSED 127.0.0.1:${port}`,
    });
    expect(await runCheck(probeCheck(ssh(`127.0.0.1:${port}`, { username: 'monitor' }), { password: 'x' }))).toMatchObject({
      status: 'down',
      message: `connect ECONNREFUSED 127.0.0.1:${port}`,
    });
  });

  it('ends at thresholds.timeoutMs against a server that never answers, banner or sign-in, and closes its socket', async () => {
    await expectTimeoutTearsDown(probeCheck(ssh(`127.0.0.1:${listener.port}`, {}, 500)), listener);
    await expectTimeoutTearsDown(probeCheck(ssh(`127.0.0.1:${listener.port}`, { username: 'monitor' }, 500), { password: 'x' }), listener);
  });
});
