import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, docScreenshots, fitsWidth, launchBrowser, type TestBrowser } from '../support/browser.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';
import { startFakeHealthchecksApi, type FakeHealthchecksApi } from '../support/fakes/healthchecks-api-fake.js';
import { startFakePingdomApi, type FakePingdomApi } from '../support/fakes/pingdom-api-fake.js';
import { signInAsAdmin } from './flows.js';

const skip = browserSkipReason();
// A Healthchecks.io API key (32 characters, as its Management API requires), known to the fake.
const HEALTHCHECKS_KEY = 'hcw_full_0123456789abcdefghijklm';
const PINGDOM_TOKEN = 'pd_good_0123456789abcdef';
const fixture = (path: string) => fileURLToPath(new URL(`../fixtures/import/${path}`, import.meta.url));

describe.skipIf(skip).each(DATABASE_KINDS)('dashboard import [%s]', (kind) => {
  let daemon: TestDaemon;
  let browser: TestBrowser;
  let token: string;
  let healthchecks: FakeHealthchecksApi;
  let pingdom: FakePingdomApi;

  beforeAll(async () => {
    healthchecks = await startFakeHealthchecksApi({ [HEALTHCHECKS_KEY]: 'full' });
    pingdom = await startFakePingdomApi({ [PINGDOM_TOKEN]: 'account' });
    const env = { SVC_IMPORT_CRON_MONITOR_API_URL: healthchecks.url, SVC_IMPORT_HOSTED_CHECK_API_URL: pingdom.url };
    [daemon, browser] = await Promise.all([startTestDaemon(kind, { env }), launchBrowser()]);
    token = await daemon.adminToken();
  });
  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
    await healthchecks?.close();
    await pingdom?.close();
  });

  const count = async (page: import('playwright-core').Page, name: string) => Number(await page.locator(`[data-count="${name}"]`).first().textContent());

  it('names sources by their tool, previews a pasted configuration file with warnings grouped in words, then imports and links each check', async () => {
    const page = await browser.newPage();
    await signInAsAdmin(page, daemon, '/orgs/default/checks');
    await page.getByRole('link', { name: 'Import', exact: true }).first().click();
    await page.getByRole('heading', { name: 'Import checks' }).waitFor();
    await page.getByLabel('Gatus configuration file (configfile-monitor)').check();
    for (const label of [
      'UptimeRobot monitors listing (uptime-api-monitor)',
      'Uptime Kuma database file or backup (selfhosted-monitor-db)',
      'Better Stack API token (hosted-monitor-api)',
    ]) {
      await page.getByLabel(label).waitFor();
    }
    await page.getByLabel('Or paste: Configuration file (YAML)').fill(readFileSync(fixture('gatus/basic.yaml'), 'utf8'));
    await page.getByRole('button', { name: 'Import preview' }).click();
    await page.getByRole('heading', { name: 'Preview: nothing has been written yet' }).waitFor();

    expect(await count(page, 'created')).toBe(4);
    expect(await count(page, 'updated')).toBe(0);
    expect(await page.locator('tr[data-action="create"]').count()).toBe(4);
    expect(await page.locator('.warning-group[data-code="SECRET_DROPPED"] summary').textContent()).toMatch(
      /^Passwords, tokens and keys not carried over \(\d+\)$/,
    );
    expect(await page.locator('.warning-group[data-code="NOTIFICATIONS_DROPPED"] summary').textContent()).toMatch(
      /^Alerts and notifications not carried over \(\d+\)$/,
    );
    // Each warning names its item; a check that does not exist yet has no link.
    expect(await page.locator('.warning-group li strong').first().textContent()).not.toBe('');
    expect(await page.locator('tr[data-action="create"] a').count()).toBe(0);
    await docScreenshots(page, 'import-preview', kind);
    // The preview wrote nothing.
    expect((await daemon.request('GET', '/orgs/default/checks', { token })).body.items).toEqual([]);

    await page.getByRole('button', { name: /Confirm import/ }).click();
    await page.getByRole('heading', { name: 'Import done' }).waitFor();
    const listed = await daemon.request('GET', '/orgs/default/checks?label=svc-managed%3Dconfigfile-monitor', { token });
    const slugs = listed.body.items.map((c: { slug: string }) => c.slug);
    expect(slugs).toHaveLength(4);
    expect(slugs).toEqual(expect.arrayContaining(['website', 'api-health', 'status-range']));
    // Every created check is linked, from its row and from its warnings.
    expect(await page.locator('tr[data-action="create"] a').count()).toBe(4);
    expect(await page.locator('tr[data-slug="website"] a').getAttribute('href')).toBe('/orgs/default/checks/website');

    await page.getByRole('link', { name: 'See the imported checks' }).click();
    await page.waitForURL(/\/orgs\/default\/checks\?label=svc-managed%3Dconfigfile-monitor$/);
    await page.locator('tr[data-slug="website"]').waitFor();
    expect(await page.locator('tbody tr').count()).toBe(4);
  });

  it('runs again safely: the same input previews as unchanged', async () => {
    const page = await browser.newPage({ width: 375 });
    await signInAsAdmin(page, daemon, '/orgs/default/checks/-/import');
    await page.getByLabel('Or paste: Configuration file (YAML)').fill(readFileSync(fixture('gatus/basic.yaml'), 'utf8'));
    await page.getByRole('button', { name: 'Import preview' }).click();
    await page.getByRole('heading', { name: 'Preview: nothing has been written yet' }).waitFor();
    expect(await count(page, 'created')).toBe(0);
    expect(await count(page, 'unchanged')).toBe(4);
    expect(await fitsWidth(page)).toBe(true);
  });

  it("previews each field a re-run changes and a field changed on both sides, and takes the source's when asked", async () => {
    const yaml = (interval: string) =>
      `endpoints:\n  - name: Rerun target\n    url: https://rerun.example.com\n    interval: ${interval}\n    conditions: ["[STATUS] == 200"]\n`;
    const first = await daemon.request('POST', '/orgs/default/checks/import/convert?source=gatus', { token, raw: yaml('30s') });
    expect(first.body).toMatchObject({ created: 1 });
    expect((await daemon.request('PATCH', '/orgs/default/checks/rerun-target', { token, body: { intervalSeconds: 120 } })).status).toBe(200);

    const page = await browser.newPage();
    await signInAsAdmin(page, daemon, '/orgs/default/checks/-/import');
    await page.getByLabel('Or paste: Configuration file (YAML)').fill(yaml('45s'));
    await page.getByRole('button', { name: 'Import preview' }).click();
    await page.getByRole('heading', { name: 'Preview: nothing has been written yet' }).waitFor();
    const row = page.locator('tr[data-slug="rerun-target"]');
    expect(await row.getAttribute('data-action')).toBe('unchanged');
    expect(await row.locator('[data-conflict="intervalSeconds"]').textContent()).toBe(
      'Changed here and in the source: intervalSeconds here 120, source 45 (kept as it is here)',
    );

    await page.getByLabel("Take the source's value where a field was changed here too").check();
    await page.getByRole('button', { name: 'Import preview' }).click();
    await page.getByRole('heading', { name: 'Preview: nothing has been written yet' }).waitFor();
    expect(await row.getAttribute('data-action')).toBe('update');
    expect(await row.locator('[data-field="intervalSeconds"]').textContent()).toBe('intervalSeconds 120 → 45');
    expect(await row.locator('[data-conflict="intervalSeconds"]').textContent()).toMatch(/\(the source's value is taken\)$/);
    await page.getByRole('button', { name: /Confirm import/ }).click();
    await page.getByRole('heading', { name: 'Import done' }).waitFor();
    expect((await daemon.request('GET', '/orgs/default/checks/rerun-target', { token })).body.intervalSeconds).toBe(45);
  });

  it('reads a file chosen for the self-hosted source', async () => {
    const page = await browser.newPage();
    await signInAsAdmin(page, daemon, '/orgs/default/checks/-/import');
    await page.getByLabel('Uptime Kuma database file or backup (selfhosted-monitor-db)').check();
    await page.getByLabel('File', { exact: true }).setInputFiles(fixture('uptime-kuma/backup-1.23.json'));
    await page.getByRole('button', { name: 'Import preview' }).click();
    await page.getByRole('heading', { name: 'Preview: nothing has been written yet' }).waitFor();
    expect(await count(page, 'created')).toBeGreaterThan(0);
    expect(await page.locator('.warning-group[data-code="UNSUPPORTED_TYPE"] summary').textContent()).toMatch(/^No equivalent check type: skipped \(\d+\)$/);
    // A skipped item says why, in words, next to it.
    const reasons = await page.locator('tr[data-action="skip"] .skip-reason').allTextContents();
    expect(reasons.some((reason) => /^No equivalent check type: skipped: .+/.test(reason))).toBe(true);
    expect(reasons.some((reason) => /^Groups that became labels: .+/.test(reason))).toBe(true);
  });

  it('sends files chosen together for the Blackbox exporter as one import', async () => {
    const page = await browser.newPage();
    await signInAsAdmin(page, daemon, '/orgs/default/checks/-/import');
    await page.getByLabel('Prometheus Blackbox exporter configuration (probe-exporter-config)').check();
    const folder = fixture('blackbox-exporter/probes');
    await page.getByLabel('Files', { exact: true }).setInputFiles(['prometheus.yml', 'blackbox.yml', 'ssh-hosts.yml'].map((name) => `${folder}/${name}`));
    await page.getByRole('button', { name: 'Import preview' }).click();
    await page.getByRole('heading', { name: 'Preview: nothing has been written yet' }).waitFor();
    expect(await count(page, 'created')).toBe(11);
  });

  it('imports Healthchecks.io checks with an API key that the server exchanges for the listing', async () => {
    const page = await browser.newPage();
    await signInAsAdmin(page, daemon, '/orgs/default/checks/-/import');
    await page.getByLabel('Healthchecks.io checks listing (cron-monitor-api)').check();
    // The key field is a password field; the saved listing can still be given instead.
    expect(await page.getByLabel('API key', { exact: true }).getAttribute('type')).toBe('password');
    await page.getByLabel('Or paste: Checks listing (JSON)').waitFor();
    await page.getByLabel('API key', { exact: true }).fill(HEALTHCHECKS_KEY);
    await page.getByRole('button', { name: 'Import preview' }).click();
    await page.getByRole('heading', { name: 'Preview: nothing has been written yet' }).waitFor();
    expect(await count(page, 'created')).toBe(4);
    expect(healthchecks.requests.at(-1)?.headers['x-api-key']).toBe(HEALTHCHECKS_KEY);
    await page.getByRole('button', { name: /Confirm import/ }).click();
    await page.getByRole('heading', { name: 'Import done' }).waitFor();
    const listed = await daemon.request('GET', '/orgs/default/checks?label=svc-managed%3Dcron-monitor-api', { token });
    expect(listed.body.items).toHaveLength(4);
    expect(await page.content()).not.toContain(HEALTHCHECKS_KEY);
  });

  it('previews Pingdom checks read with an API token', async () => {
    const page = await browser.newPage();
    await signInAsAdmin(page, daemon, '/orgs/default/checks/-/import');
    await page.getByLabel('Pingdom checks listing (hosted-check-api)').check();
    await page.getByLabel('API token', { exact: true }).fill(PINGDOM_TOKEN);
    await page.getByRole('button', { name: 'Import preview' }).click();
    await page.getByRole('heading', { name: 'Preview: nothing has been written yet' }).waitFor();
    expect(await count(page, 'created')).toBe(4);
    expect(pingdom.requests.at(-1)?.headers.authorization).toBe(`Bearer ${PINGDOM_TOKEN}`);
    expect(await page.content()).not.toContain(PINGDOM_TOKEN);
  });

  it('shows unreadable input as a message', async () => {
    const page = await browser.newPage();
    await signInAsAdmin(page, daemon, '/orgs/default/checks/-/import');
    await page.getByLabel('UptimeRobot monitors listing (uptime-api-monitor)').check();
    await page.getByLabel('Or paste: Monitors listing (JSON)').fill('this is not JSON');
    await page.getByRole('button', { name: 'Import preview' }).click();
    await page.getByRole('alert').filter({ hasText: 'The input cannot be read' }).waitFor();
  });

  it('showed no console errors on any page', () => {
    expect(browser.problems).toEqual([]);
  });
});
