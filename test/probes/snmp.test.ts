import { createSocket, type Socket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateCheck } from '../../checks/index.js';
import { freePort, requireProgram, type PrivateServer } from '../support/local-servers.js';
import { loadProbeAndDriver, probeCheck, runCheck } from '../support/probe-runs.js';
import { SNMP_SECRETS, startPrivateSnmpd } from '../support/udp-daemons.js';

const snmpd = requireProgram('/usr/sbin/snmpd');

const SYS_LOCATION = '1.3.6.1.2.1.1.6.0';
const SYS_UPTIME = '1.3.6.1.2.1.1.3.0';

const snmp = (target: string, config: Record<string, unknown>, timeoutMs = 2000) =>
  ({ name: 'switch', type: 'snmp', target, config, thresholds: { timeoutMs } }) as const;

describe.skipIf(!snmpd.ok)('snmp probe against a private snmpd', () => {
  let server: PrivateServer;
  let target: string;
  const community = { community: SNMP_SECRETS.community };
  beforeAll(async () => {
    // Loaded before any run, so no run's deadline counts the driver's loading.
    await loadProbeAndDriver('snmp');
    server = await startPrivateSnmpd();
    target = `127.0.0.1:${server.port}`;
  });
  afterAll(() => server?.stop());

  it('reads an OID over v2c and v1, and compares it', async () => {
    expect(await runCheck(probeCheck(snmp(target, { oid: SYS_LOCATION }), community))).toMatchObject({
      status: 'up',
      message: `${SYS_LOCATION} = svc probe lab`,
    });
    const uptime = await runCheck(probeCheck(snmp(target, { version: '1', oid: `.${SYS_UPTIME}`, condition: { operator: '>', expected: 0 } }), community));
    expect(uptime.status, uptime.message).toBe('up');
    const wrong = await runCheck(probeCheck(snmp(target, { oid: SYS_LOCATION, condition: { expected: 'elsewhere' } }), community));
    expect(wrong).toMatchObject({ status: 'down', message: `${SYS_LOCATION} is svc probe lab, expected == elsewhere` });
  });

  it('is down when the OID has no value', async () => {
    const result = await runCheck(probeCheck(snmp(target, { oid: '1.3.6.1.2.1.1.99.0' }), community));
    expect(result).toMatchObject({ status: 'down', message: 'no value at 1.3.6.1.2.1.1.99.0: NoSuchObject' });
  });

  it('reads over SNMPv3 with SHA/AES, and is down with a wrong passphrase, with no secret in the message', async () => {
    const v3 = snmp(target, { version: '3', v3Username: SNMP_SECRETS.v3Username, oid: SYS_LOCATION });
    const secrets = { authKey: SNMP_SECRETS.authKey, privKey: SNMP_SECRETS.privKey };
    expect(await runCheck(probeCheck(v3, secrets))).toMatchObject({ status: 'up', message: `${SYS_LOCATION} = svc probe lab` });
    const wrong = await runCheck(probeCheck(v3, { ...secrets, authKey: 'not-the-passphrase' }), ['not-the-passphrase']);
    expect(wrong.status).toBe('down');
    expect(wrong.message).not.toContain('not-the-passphrase');
    expect(wrong.message).toMatch(/Wrong Digest|authentication/i);
  });

  it('is down with a clear message when the community is wrong (the agent stays silent)', async () => {
    const started = Date.now();
    const result = await runCheck(probeCheck(snmp(target, { oid: SYS_LOCATION }, 500), { community: 'wrong-community' }));
    expect(result).toMatchObject({ status: 'down', message: 'no SNMP answer (wrong community or credentials, or no agent)' });
    expect(Date.now() - started).toBeLessThan(600);
  });
});

describe('snmp check credentials', () => {
  it('are secret references in the check, never literal values, and fit the version', () => {
    const check = (config: Record<string, unknown>) =>
      validateCheck({ name: 'switch', type: 'snmp', target: 'switch-1', config: { oid: SYS_UPTIME, ...config } });
    expect(check({ community: '{{secrets.SWITCH_COMMUNITY}}' }).ok).toBe(true);
    expect(check({ version: '3', v3Username: 'monitor', authKey: '{{secrets.SNMP_AUTH}}', privKey: '{{secrets.SNMP_PRIV}}' }).ok).toBe(true);
    expect(check({ community: 'public' }).ok).toBe(false);
    expect(check({ version: '3', community: '{{secrets.SWITCH_COMMUNITY}}' }).ok).toBe(false);
    expect(check({ version: '3', privKey: '{{secrets.SNMP_PRIV}}' }).ok).toBe(false);
  });
});

describe('snmp probe, refused and timeout', () => {
  let silent: Socket;
  beforeAll(async () => {
    // Loaded before any run, so no run's deadline counts the driver's loading.
    await loadProbeAndDriver('snmp');
    silent = createSocket('udp4');
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
  });
  afterAll(() => silent.close());

  it('is down when the port is closed (net-snmp does not connect its socket, so this reads as silence)', async () => {
    const closed = await freePort();
    const result = await runCheck(probeCheck(snmp(`127.0.0.1:${closed}`, { oid: SYS_UPTIME }, 500)));
    expect(result).toMatchObject({ status: 'down', message: 'no SNMP answer (wrong community or credentials, or no agent)' });
  });

  it('ends before thresholds.timeoutMs when nothing answers, and closes its socket', async () => {
    const udpSockets = () => process.getActiveResourcesInfo().filter((name) => name === 'UDPWRAP').length;
    const before = udpSockets();
    const started = Date.now();
    const result = await runCheck(probeCheck(snmp(`127.0.0.1:${silent.address().port}`, { oid: SYS_UPTIME }, 400)));
    expect(result.status).toBe('down');
    expect(Date.now() - started).toBeLessThan(550);
    await expect.poll(udpSockets).toBe(before);
  });
});
