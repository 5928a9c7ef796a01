import { spawn, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, tempDir, type PrivateServer } from './local-servers.js';

/** Whether something on 127.0.0.1:`port` answers `payload` within `timeoutMs`. */
export function udpAnswers(port: number, payload: Buffer, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createSocket('udp4');
    const done = (answers: boolean) => {
      clearTimeout(timer);
      socket.close();
      resolve(answers);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.on('error', () => done(false));
    socket.once('message', () => done(true));
    socket.send(payload, port, '127.0.0.1');
  });
}

/**
 * Starts a UDP daemon in the foreground and waits until it answers `probe` on `port`; `stop`
 * ends it with SIGTERM and removes its folder. (local-servers.ts waits on TCP ports.)
 */
export async function spawnUdpServer(
  command: string,
  args: string[],
  port: number,
  dir: string,
  probe: Buffer,
  env: NodeJS.ProcessEnv = {},
): Promise<PrivateServer> {
  const child: ChildProcess = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'], cwd: dir, env: { ...process.env, ...env } });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 30_000;
  while (!(await udpAnswers(port, probe))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`${command} did not answer on udp ${port}: ${stderr.trim()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    port,
    dir,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** An SNTP client request with a zero transmit time: enough to see that a server answers. */
const NTP_PROBE = Buffer.concat([Buffer.from([0x23]), Buffer.alloc(47)]);

/**
 * Debian's chronyd as a private NTP server on a free port of 127.0.0.1: its own configuration,
 * serving its local clock at stratum 8 (`local stratum 8`) and never touching the system clock (-x).
 */
export async function startPrivateChrony(): Promise<PrivateServer> {
  const dir = tempDir('svc-chrony-');
  const port = await freePort();
  const config = join(dir, 'chrony.conf');
  writeFileSync(
    config,
    [
      `port ${port}`,
      'bindaddress 127.0.0.1',
      'allow 127.0.0.1',
      'local stratum 8',
      'cmdport 0',
      `pidfile ${join(dir, 'chronyd.pid')}`,
      `driftfile ${join(dir, 'drift')}`,
      '',
    ].join('\n'),
  );
  const user = process.getuid?.() === 0 ? ['-u', 'root'] : [];
  return spawnUdpServer('/usr/sbin/chronyd', ['-d', '-x', '-f', config, ...user], port, dir, NTP_PROBE);
}

/** The SNMP secrets of the private snmpd. */
export const SNMP_SECRETS = {
  community: 'svc-probe-community',
  v3Username: 'svcmonitor',
  authKey: 'svc-auth-passphrase',
  privKey: 'svc-priv-passphrase',
} as const;

/** An SNMPv2c GET of sysUpTime.0 with `community` (BER by hand: short lengths only). */
function snmpGet(community: string): Buffer {
  const tlv = (tag: number, body: Buffer) => Buffer.concat([Buffer.from([tag, body.length]), body]);
  const varbind = tlv(0x30, Buffer.concat([tlv(0x06, Buffer.from('2b06010201010300', 'hex')), Buffer.from([0x05, 0x00])]));
  const pdu = tlv(0xa0, Buffer.concat([Buffer.from('020101020100020100', 'hex'), tlv(0x30, varbind)]));
  return tlv(0x30, Buffer.concat([Buffer.from('020101', 'hex'), tlv(0x04, Buffer.from(community)), pdu]));
}

/**
 * Debian's snmpd as a private agent on a free port of 127.0.0.1 with its own configuration
 * (no system files, -C): a read-only v2c community and a v3 user with SHA/AES passphrases.
 */
export async function startPrivateSnmpd(): Promise<PrivateServer> {
  const dir = tempDir('svc-snmpd-');
  const port = await freePort();
  const config = join(dir, 'snmpd.conf');
  writeFileSync(
    config,
    [
      `agentAddress udp:127.0.0.1:${port}`,
      `rocommunity ${SNMP_SECRETS.community} 127.0.0.1`,
      'sysLocation svc probe lab',
      'sysContact probes@example.com',
      `createUser ${SNMP_SECRETS.v3Username} SHA "${SNMP_SECRETS.authKey}" AES "${SNMP_SECRETS.privKey}"`,
      `rouser ${SNMP_SECRETS.v3Username} priv`,
      '',
    ].join('\n'),
  );
  return spawnUdpServer('/usr/sbin/snmpd', ['-f', '-Le', '-C', '-c', config, '-p', join(dir, 'snmpd.pid')], port, dir, snmpGet(SNMP_SECRETS.community), {
    SNMP_PERSISTENT_DIR: join(dir, 'persist'),
    MIBS: '',
  });
}
