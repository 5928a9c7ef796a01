import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from '../support/cli.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';
import { startFakeReceivers, type FakeReceivers } from '../support/fakes/notify-receivers.js';

describe('svc CLI: notification channels', () => {
  let daemon: TestDaemon;
  let receiver: FakeReceivers;
  let env: Record<string, string>;
  beforeAll(async () => {
    receiver = await startFakeReceivers();
    daemon = await startTestDaemon('sqlite');
    env = { SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-cli-')), SVC_URL: daemon.url, SVC_TOKEN: await daemon.adminToken() };
  });
  afterAll(async () => {
    await daemon.stop();
    await receiver.close();
  });

  it('has help with an example for each command', async () => {
    for (const command of ['list', 'create', 'types', 'test', 'deliveries']) {
      const help = await runSvc(['channels', command, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('Example:');
    }
  });

  it('lists the channel types, and shows one with its secrets and a sample the daemon accepts', async () => {
    const listed = await runSvc(['channels', 'types'], { env });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/TYPE\s+TITLE\s+SECRETS/);
    expect(listed.stdout).toMatch(/pagerduty\s+PagerDuty\s+routingKey/);
    const slack = await runSvc(['channels', 'types', 'slack'], { env });
    expect(slack.stdout).toContain('secrets (shown masked): webhookUrl, botToken');
    const sample = JSON.parse(slack.stdout.slice(slack.stdout.indexOf('{')));
    const created = await runSvc(['channels', 'create', '--name', 'from sample', '--type', 'slack', '--config', JSON.stringify(sample), '--json'], { env });
    expect(created.code, created.stderr).toBe(0);
    const unknown = await runSvc(['channels', 'types', 'carrier-pigeon'], { env });
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('the types are email, webhook');
  });

  it('creates, lists and tests a channel, then shows its deliveries', async () => {
    const created = await runSvc(
      [
        'channels',
        'create',
        '--name',
        'ops hook',
        '--type',
        'webhook',
        '--config',
        JSON.stringify({ url: `${receiver.url}/hook/cli-secret-path` }),
        '--default',
        '--json',
      ],
      { env },
    );
    expect(created.code, created.stderr).toBe(0);
    const channel = JSON.parse(created.stdout);
    expect(channel).toMatchObject({ name: 'ops hook', type: 'webhook', default: true });

    const listed = await runSvc(['channels', 'list'], { env });
    expect(listed.stdout).toMatch(/UID\s+TYPE\s+NAME\s+DEFAULT/);
    expect(listed.stdout).toContain('ops hook');
    expect(listed.stdout).not.toContain('cli-secret-path');

    const tested = await runSvc(['channels', 'test', channel.uid], { env });
    expect(tested.code).toBe(0);
    expect(tested.stdout).toContain('test message delivered (200)');
    expect(receiver.at('/hook')[0].json.event).toBe('test');

    expect((await daemon.request('POST', '/orgs/default/incidents', { token: env.SVC_TOKEN, body: { title: 'From the CLI test' } })).status).toBe(201);
    await receiver.waitFor('/hook', 2);
    let log = '';
    for (let i = 0; i < 50 && !/sent/.test(log); i++) {
      log = (await runSvc(['channels', 'deliveries', channel.uid], { env })).stdout;
      if (!/sent/.test(log)) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(log).toMatch(/incident\.opened\s+sent\s+1\s+200/);
  });

  it('refuses settings that are not a JSON object, and reports a test that did not arrive', async () => {
    const bad = await runSvc(['channels', 'create', '--name', 'x', '--type', 'webhook', '--config', 'not json'], { env });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('must be a JSON object');
    const refused = await runSvc(
      ['channels', 'create', '--name', 'meta', '--type', 'webhook', '--config', JSON.stringify({ url: 'http://169.254.169.254/latest' }), '--json'],
      { env },
    );
    const uid = JSON.parse(refused.stdout).uid;
    const tested = await runSvc(['channels', 'test', uid], { env });
    expect(tested.code).toBe(1);
    expect(tested.stdout + tested.stderr).toContain('egress policy refuses 169.254.169.254');
  });
});
