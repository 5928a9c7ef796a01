import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { freePort, spawnServer, tempDir, type PrivateServer } from './local-servers.js';

/** A private OpenSSH server and the key that signs in to it. */
export interface PrivateSshd extends PrivateServer {
  /** The user the key signs in as: the one running the tests. */
  username: string;
  /** An OpenSSH private key (ed25519, no passphrase) that the server accepts. */
  privateKey: string;
  /** A key the server does not know. */
  strangerKey: string;
}

function generateKey(file: string): string {
  const made = spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', file], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`ssh-keygen failed: ${made.stderr}`);
  return readFileSync(file, 'utf8');
}

/**
 * Debian's sshd in the foreground on a free port of 127.0.0.1, with its own host key and
 * configuration, admitting only the test user's generated key (password sign-in is offered, so
 * that a wrong password is refused by the server itself).
 */
export async function startPrivateSshd(): Promise<PrivateSshd> {
  const dir = tempDir('svc-sshd-');
  chmodSync(dir, 0o755);
  const port = await freePort();
  const hostKey = join(dir, 'host_key');
  generateKey(hostKey);
  const privateKey = generateKey(join(dir, 'user_key'));
  const strangerKey = generateKey(join(dir, 'stranger_key'));
  const authorized = join(dir, 'authorized_keys');
  writeFileSync(authorized, readFileSync(join(dir, 'user_key.pub')));
  chmodSync(authorized, 0o600);
  const config = join(dir, 'sshd_config');
  writeFileSync(
    config,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${hostKey}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${authorized}`,
      'StrictModes no',
      'UsePAM no',
      'PermitRootLogin prohibit-password',
      'PasswordAuthentication yes',
      'KbdInteractiveAuthentication no',
      'MaxAuthTries 6',
      '',
    ].join('\n'),
  );
  // sshd insists on its privilege-separation folder, which the package creates only at boot.
  spawnSync('mkdir', ['-p', '/run/sshd']);
  const server = await spawnServer('/usr/sbin/sshd', ['-D', '-e', '-f', config], port, dir);
  return { ...server, username: userInfo().username, privateKey, strangerKey };
}
