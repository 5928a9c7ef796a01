import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, selfSignedCertificate, spawnServer, tempDir, waitForPort, type PrivateServer } from './local-servers.js';

/** A private Dovecot: IMAP and POP3, each plain (with STARTTLS) and over TLS. */
export interface PrivateDovecot extends PrivateServer {
  imapPort: number;
  imapsPort: number;
  pop3Port: number;
  pop3sPort: number;
}

/**
 * Debian's Dovecot in the foreground with its own configuration on free ports of 127.0.0.1, a
 * self-signed certificate and a passwd-file user, so that nothing of the machine's own mail
 * setup is used or changed.
 */
export async function startPrivateDovecot(): Promise<PrivateDovecot> {
  const dir = tempDir('svc-dovecot-');
  // Dovecot's login processes run as dovenull and must reach the runtime folder below.
  chmodSync(dir, 0o755);
  const [imapPort, imapsPort, pop3Port, pop3sPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const { cert, key } = selfSignedCertificate(dir);
  mkdirSync(join(dir, 'mail'));
  const users = join(dir, 'users');
  const uid = process.getuid?.() ?? 0;
  const gid = process.getgid?.() ?? 0;
  writeFileSync(users, `monitor:{PLAIN}mail-probe-password:${uid}:${gid}::${join(dir, 'mail')}::\n`);
  const config = join(dir, 'dovecot.conf');
  writeFileSync(
    config,
    [
      `base_dir = ${join(dir, 'run')}`,
      `state_dir = ${join(dir, 'state')}`,
      'log_path = /dev/stderr',
      'protocols = imap pop3',
      'listen = 127.0.0.1',
      'ssl = yes',
      `ssl_cert = <${cert}`,
      `ssl_key = <${key}`,
      'auth_mechanisms = plain',
      'disable_plaintext_auth = no',
      `mail_location = maildir:${join(dir, 'mail')}/%u`,
      `passdb {\n  driver = passwd-file\n  args = ${users}\n}`,
      `userdb {\n  driver = passwd-file\n  args = ${users}\n}`,
      `service imap-login {\n  inet_listener imap {\n    port = ${imapPort}\n  }\n  inet_listener imaps {\n    port = ${imapsPort}\n    ssl = yes\n  }\n}`,
      `service pop3-login {\n  inet_listener pop3 {\n    port = ${pop3Port}\n  }\n  inet_listener pop3s {\n    port = ${pop3sPort}\n    ssl = yes\n  }\n}`,
      // The machine's Dovecot (if one runs) keeps its own state; ours needs no stats service.
      'service stats {\n  unix_listener stats-reader {\n    mode = 0600\n  }\n  unix_listener stats-writer {\n    mode = 0600\n  }\n}',
      '',
    ].join('\n'),
  );
  const checked = spawnSync('/usr/sbin/dovecot', ['-c', config, '-n'], { encoding: 'utf8' });
  if (checked.status !== 0) throw new Error(`dovecot refused its configuration: ${checked.stderr}`);
  const server = await spawnServer('/usr/sbin/dovecot', ['-F', '-c', config], imapPort, dir);
  for (const port of [imapsPort, pop3Port, pop3sPort]) await waitForPort(port, 10_000, `dovecot on ${port}`);
  return { ...server, imapPort, imapsPort, pop3Port, pop3sPort };
}
