import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, docScreenshots, launchBrowser, type TestBrowser } from '../support/browser.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';
import { startFakeReceivers, type FakeReceivers } from '../support/fakes/notify-receivers.js';
import { until } from '../support/runner.js';
import { signInAsAdmin } from './flows.js';

const skip = browserSkipReason();

describe.skipIf(skip).each(DATABASE_KINDS)('dashboard notification channels [%s]', (kind) => {
  let daemon: TestDaemon;
  let browser: TestBrowser;
  let receiver: FakeReceivers;
  let token: string;

  beforeAll(async () => {
    receiver = await startFakeReceivers();
    [daemon, browser] = await Promise.all([startTestDaemon(kind), launchBrowser()]);
    token = await daemon.adminToken();
    expect(
      (await daemon.request('POST', '/orgs/default/checks', { token, body: { name: 'Shop', type: 'http', target: 'https://shop.example.com' } })).status,
    ).toBe(201);
  });
  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
    await receiver?.close();
  });

  it('creates a channel, keeps its secret write-only on edit, sends a test and shows the delivery log; a check chooses it', async () => {
    const page = await browser.newPage();
    await signInAsAdmin(page, daemon, '/orgs/default/channels');
    await page.getByRole('heading', { name: 'Notification channels' }).waitFor();
    await page.getByText('New channel').click();
    await page.locator('#new-channel-name').fill('Ops hook');
    await page.locator('#new-channel-config').fill(JSON.stringify({ url: `${receiver.url}/hook/secret-path-123` }));
    await page.getByRole('button', { name: 'Create channel' }).click();
    const card = page.locator('li[data-channel="Ops hook"]');
    await card.waitFor();
    expect(await card.textContent()).not.toContain('secret-path-123');

    await card.getByRole('button', { name: 'Edit' }).click();
    const config = card.locator('textarea');
    expect(await config.inputValue()).not.toContain('secret-path-123');
    await card.getByLabel('Default channel (for checks that choose none)').check();
    await card.getByRole('button', { name: 'Save' }).click();
    await page.locator('li[data-channel="Ops hook"] .badge', { hasText: 'default' }).waitFor();
    const stored = (await daemon.request('GET', '/orgs/default/notification-channels', { token })).body.items[0];
    expect(stored.default).toBe(true);

    await card.getByRole('button', { name: 'Send a test' }).click();
    await card.locator('[data-test-result="ok"]').waitFor();
    // The secret was kept: the test went to the stored URL.
    expect(receiver.at('/hook/secret-path-123')).toHaveLength(1);

    await daemon.request('POST', '/orgs/default/incidents', { token, body: { title: 'Seen in the log', checkSlug: 'shop' } });
    await receiver.waitFor('/hook', 2);
    // The log is read once it says so: the delivery is recorded after its answer arrives.
    await until(async () => (await daemon.deps.db.kysely.selectFrom('notification_outbox').select('uid').where('status', '=', 'sent').execute()).length > 0);
    await card.getByRole('button', { name: 'Deliveries' }).click();
    await card.locator('tr[data-delivery-status="sent"]').waitFor();
    await docScreenshots(page, 'channels', kind);

    await page.goto(`${daemon.url}/orgs/default/checks/shop`);
    await page.getByRole('heading', { name: 'Notification channels' }).waitFor();
    await page.getByLabel('Ops hook (webhook, default)').check();
    await page.getByRole('button', { name: 'Save channels' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const chosen = await daemon.request('GET', '/orgs/default/checks/shop/channels', { token });
    expect(chosen.body.channels).toEqual([stored.uid]);
  });
});
