import { describe, expect, it } from 'vitest';
import {
  canonicalSource,
  convertImport,
  describeImportSources,
  IMPORT_REGISTRY,
  IMPORT_SOURCES,
  ImportInputError,
  importResponse,
  tokenText,
  TOKEN_SOURCES,
} from '../../../importers/index.js';

// The registry is what the daemon's endpoint and the CLI's --local share; these pin its table.
describe('import source registry', () => {
  it('has one entry per source value, each naming its tool alias and loading a converter', async () => {
    expect(Object.keys(IMPORT_REGISTRY)).toEqual([...IMPORT_SOURCES]);
    for (const source of IMPORT_SOURCES) {
      const entry = IMPORT_REGISTRY[source];
      expect(entry.source).toBe(source);
      expect(canonicalSource(entry.tool)).toBe(source);
      expect(typeof (await entry.load())).toBe('function');
    }
    expect(IMPORT_SOURCES.filter((source) => IMPORT_REGISTRY[source].fetchesWithToken)).toEqual(['cron-monitor-api', 'hosted-check-api', 'hosted-monitor-api']);
    expect(TOKEN_SOURCES).toEqual(['cron-monitor-api', 'hosted-check-api', 'hosted-monitor-api']);
    expect(describeImportSources()).toBe(
      'configfile-monitor (gatus), cron-monitor-api (healthchecks), hosted-check-api (pingdom), hosted-monitor-api (betterstack), ' +
        'probe-exporter-config (blackbox-exporter), selfhosted-monitor-db (uptime-kuma), uptime-api-monitor (uptimerobot)',
    );
    expect(IMPORT_SOURCES.filter((source) => IMPORT_REGISTRY[source].multipleFiles)).toEqual(['probe-exporter-config']);
  });

  it('converts every source, the hosted one from the fetched data rather than a token', async () => {
    const inputs = {
      'configfile-monitor': 'endpoints:\n  - name: Web\n    url: https://web.example.com\n    conditions: ["[STATUS] == 200"]\n',
      'cron-monitor-api': JSON.stringify({ checks: [{ name: 'Web', timeout: 3600, grace: 60 }] }),
      'hosted-check-api': JSON.stringify({ checks: [{ id: 1, name: 'Web', hostname: 'web.example.com', type: 'http', resolution: 1 }] }),
      'probe-exporter-config': JSON.stringify({
        files: {
          'prometheus.yml':
            'scrape_configs:\n  - job_name: web\n    metrics_path: /probe\n    static_configs: [{targets: [https://web.example.com]}]\n' +
            '    relabel_configs: [{source_labels: [__address__], target_label: __param_target}]\n',
          'blackbox.yml': 'modules:\n  http_2xx:\n    prober: http\n',
        },
      }),
      'hosted-monitor-api': {
        monitors: [{ id: '1', type: 'monitor', attributes: { monitor_type: 'status', url: 'https://web.example.com', pronounceable_name: 'Web' } }],
        heartbeats: [],
      },
      'selfhosted-monitor-db': JSON.stringify({
        version: '1.23.16',
        notificationList: [],
        monitorList: [{ id: 1, name: 'Web', type: 'http', url: 'https://web.example.com', interval: 60, active: true }],
      }),
      'uptime-api-monitor': JSON.stringify({ stat: 'ok', monitors: [{ id: 1, friendly_name: 'Web', url: 'https://web.example.com', type: 1, interval: 300 }] }),
    } as const;
    for (const source of IMPORT_SOURCES) {
      const result = await convertImport(source, inputs[source]);
      const slug = source === 'probe-exporter-config' ? 'https-web-example-com-http-2xx' : 'web';
      expect(
        result.checks.map((check) => [check.slug, check.type, check.labels['svc-managed']]),
        source,
      ).toEqual([[slug, source === 'cron-monitor-api' ? 'heartbeat' : 'http', source]]);
      const response = importResponse(source, true, result, () => 'create');
      expect(response).toMatchObject({ source, dryRun: true, created: 1, updated: 0, unchanged: 0, skipped: 0 });
    }
    await expect(convertImport('uptime-api-monitor', '{"stat":"fail","error":{"message":"api_key not found"}}')).rejects.toBeInstanceOf(ImportInputError);
  });

  it('reads a token without its line end, and refuses what cannot be one', () => {
    expect(tokenText(new TextEncoder().encode('  abc123\r\n'))).toBe('abc123');
    for (const bad of ['', ' \n', 'two words']) expect(() => tokenText(bad)).toThrow(ImportInputError);
    // Each token source names its own two inputs.
    expect(() => tokenText('two words', 'cron-monitor-api')).toThrow(/API key of the cron monitor's project .* checks listing/);
    expect(() => tokenText('two words', 'hosted-monitor-api')).toThrow(/API token of the hosted monitoring service/);
  });

  it('counts the response from the actions, with skipped items listed after the checks', async () => {
    const result = await convertImport(
      'configfile-monitor',
      'endpoints:\n  - name: A\n    url: https://a.example.com\n    conditions: ["[STATUS] == 200"]\n  - name: B\n    url: sctp://b.example.com:1\n    conditions: ["[CONNECTED] == true"]\n  - name: C\n    url: https://c.example.com\n    conditions: ["[STATUS] == 200"]\n',
    );
    const response = importResponse('configfile-monitor', false, result, (slug) => (slug === 'a' ? 'unchanged' : 'update'));
    expect(response).toMatchObject({ created: 0, updated: 1, unchanged: 1, skipped: 1 });
    expect(response.checks.map((check) => [check.slug ?? check.name, check.action])).toEqual([
      ['a', 'unchanged'],
      ['c', 'update'],
      ['B', 'skip'],
    ]);
  });
});
