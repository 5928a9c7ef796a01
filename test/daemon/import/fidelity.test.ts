import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDatabase } from '../../fixtures/import/uptime-kuma/build-database.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { checkCount, convertPath } from './helpers.js';

const DOMAIN_ONLY = `
endpoints:
  - name: Shop registration
    url: https://www.shop.example.co.uk/
    interval: 5m
    conditions: ["[DOMAIN_EXPIRATION] > 720h"]
`;

const DOMAIN_AND_STATUS = `
endpoints:
  - name: Blog
    url: https://blog.example.org/health
    conditions:
      - "[STATUS] == 200"
      - "[BODY] == pat(*ok*)"
      - "[DOMAIN_EXPIRATION] > 336h"
`;

describe.each(DATABASE_KINDS)('import fidelity [%s]', (kind) => {
  let daemon: TestDaemon;
  let admin: string;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
    admin = await daemon.adminToken();
  });
  afterAll(() => daemon.stop());

  const convert = (query: string, raw: string | Uint8Array) => daemon.request('POST', convertPath(query), { token: admin, raw });
  const check = async (slug: string) => (await daemon.request('GET', `/orgs/default/checks/${slug}`, { token: admin })).body;

  it('an endpoint with only [DOMAIN_EXPIRATION] becomes a domain check of the registrable domain, the threshold carried over', async () => {
    const preview = await convert('source=gatus&dryRun=true', DOMAIN_ONLY);
    expect(preview.body.checks).toEqual([{ slug: 'shop-registration', name: 'Shop registration', type: 'domain', action: 'create' }]);
    expect(preview.body.warnings).toEqual([]);
    expect((await convert('source=gatus', DOMAIN_ONLY)).body).toMatchObject({ created: 1 });
    expect(await check('shop-registration')).toMatchObject({ type: 'domain', target: 'example.co.uk', config: { expiryThresholdDays: 30 } });
    expect((await convert('source=gatus', DOMAIN_ONLY)).body).toMatchObject({ created: 0, updated: 0, unchanged: 1 });
  });

  it('an endpoint with other conditions too yields an http check and a <slug>-domain check; re-runs are idempotent', async () => {
    const preview = await convert('source=gatus&dryRun=true', DOMAIN_AND_STATUS);
    expect(preview.body.checks).toEqual([
      { slug: 'blog', name: 'Blog', type: 'http', action: 'create' },
      { slug: 'blog-domain', name: 'Blog domain', type: 'domain', action: 'create' },
    ]);
    const count = await checkCount(daemon);
    expect((await convert('source=gatus', DOMAIN_AND_STATUS)).body).toMatchObject({ created: 2 });
    expect(await check('blog')).toMatchObject({ type: 'http', target: 'https://blog.example.org/health', config: { keyword: { value: 'ok' } } });
    expect(await check('blog-domain')).toMatchObject({ type: 'domain', target: 'example.org', config: { expiryThresholdDays: 14 } });
    expect((await convert('source=gatus', DOMAIN_AND_STATUS)).body).toMatchObject({ created: 0, updated: 0, unchanged: 2 });
    expect(await checkCount(daemon)).toBe(count + 2);
  });

  it('names a self-hosted group in the answer with the label it became on its monitors', async () => {
    const database = await buildDatabase(
      '2.5',
      `INSERT INTO monitor (id, name, type, active, interval) VALUES (1, 'Core', 'group', 1, 60);
       INSERT INTO monitor (id, name, type, url, active, interval, parent) VALUES (2, 'API', 'http', 'https://api.example.com', 1, 60, 1);
       INSERT INTO monitor (id, name, type, url, active, interval, parent) VALUES (3, 'Web', 'http', 'https://www.example.com', 1, 60, 1);`,
    );
    const res = await convert('source=uptime-kuma&dryRun=true', database);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ created: 2, skipped: 1 });
    expect(res.body.checks).toContainEqual({ name: 'Core', action: 'skip', reason: 'BECAME_LABEL', message: 'became the label group=Core on its 2 monitors' });
    const applied = await convert('source=uptime-kuma', database);
    expect(applied.body).toMatchObject({ created: 2, skipped: 1 });
    expect(await check('api')).toMatchObject({ labels: { group: 'Core' } });
  });

  it("stores the settings that reproduce Uptime Kuma's verdicts, and a re-run finds them unchanged", async () => {
    const conditions = JSON.stringify([{ type: 'expression', variable: 'record', operator: 'contains', value: 'spf1' }]).replace(/'/g, "''");
    const database = await buildDatabase(
      '2.5',
      `INSERT INTO monitor (id, name, type, url, keyword, active, interval, expiry_notification) VALUES (1, 'Kw', 'keyword', 'https://kw.example.com', '"ok":true', 1, 60, 1);
       INSERT INTO monitor (id, name, type, url, json_path, json_path_operator, expected_value, active, interval) VALUES (2, 'Jq', 'json-query', 'https://jq.example.com', 'version', '==', '2.10', 1, 60);
       INSERT INTO monitor (id, name, type, hostname, dns_resolve_type, dns_resolve_server, port, conditions, active, interval) VALUES (3, 'Txt', 'dns', 'example.com', 'TXT', '127.0.0.1', 53, '${conditions}', 1, 60);
       INSERT INTO monitor (id, name, type, url, accepted_statuscodes_json, active, interval) VALUES (4, 'Ws', 'websocket-upgrade', 'wss://ws.example.com', '["1000"]', 1, 60);
       INSERT INTO monitor (id, name, type, hostname, port, snmp_oid, snmp_version, radius_password, json_path_operator, expected_value, active, interval) VALUES (5, 'Sw', 'snmp', '127.0.0.1', 161, '1.3.6.1.2.1.1.3.0', '2c', 'n0t-public', '>', '0', 1, 60);`,
    );
    const applied = await convert('source=uptime-kuma', database);
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body).toMatchObject({ created: 5, skipped: 0 });
    const kw = await check('kw');
    expect(kw).toMatchObject({ config: { keyword: { value: '"ok":true' }, keywordSearch: 'reserialised-json' } });
    expect(kw.config).not.toHaveProperty('certificateExpiryDays');
    expect(await check('jq')).toMatchObject({
      config: { jsonQueries: [{ expression: 'version', expected: '2.10', compareAs: 'text', scalarOnly: true }], nonJsonBody: 'text' },
    });
    expect(await check('txt')).toMatchObject({ config: { requireAnswers: true, answerConditions: [{ join: 'and', operator: 'contains', value: 'spf1' }] } });
    expect(await check('ws')).toMatchObject({ config: { expectedCloseCodes: [1000] } });
    expect(await check('sw')).toMatchObject({ config: { community: '{{secrets.SW_COMMUNITY}}', condition: { compareAs: 'text' } } });
    expect((await convert('source=uptime-kuma', database)).body).toMatchObject({ created: 0, updated: 0, unchanged: 5 });
  });
});
