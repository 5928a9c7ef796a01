import { dump } from 'js-yaml';
import { describe, expect, test } from 'vitest';
import { convertImport, type ImportSource } from '../../../importers/index.js';
import { fileBundleText } from '../../../importers/shared/file-bundle.js';

// Settings beyond the catalog's limits are left out with a warning and the monitor is imported:
// it used to be skipped whole (INVALID_ITEM) in these sources.

const long = 'k'.repeat(1025);
const encode = (value: unknown) => new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value));

const blackbox = (module: Record<string, unknown>, target: string) =>
  fileBundleText([
    [
      'prometheus.yml',
      dump({
        scrape_configs: [
          {
            job_name: 'probe',
            metrics_path: '/probe',
            params: { module: ['m'] },
            static_configs: [{ targets: [target] }],
            relabel_configs: [
              { source_labels: ['__address__'], target_label: '__param_target' },
              { target_label: '__address__', replacement: '127.0.0.1:9115' },
            ],
          },
        ],
      }),
    ],
    ['blackbox.yml', dump({ modules: { m: module } })],
  ]);

const kuma = (monitor: Record<string, unknown>) => ({
  version: '2.0.0',
  notificationList: [],
  monitorList: [{ id: 1, name: 'Probe', active: true, interval: 60, ...monitor }],
});

const CASES: Array<[string, ImportSource, unknown, string]> = [
  [
    'Uptime Kuma MQTT',
    'selfhosted-monitor-db',
    kuma({ type: 'mqtt', hostname: '127.0.0.1', port: 1883, mqttTopic: 't', mqttSuccessMessage: long }),
    'mqttSuccessMessage',
  ],
  ['Uptime Kuma gRPC', 'selfhosted-monitor-db', kuma({ type: 'grpc-keyword', grpcUrl: '127.0.0.1:50051', keyword: long }), 'keyword'],
  [
    'UptimeRobot v2',
    'uptime-api-monitor',
    { stat: 'ok', monitors: [{ id: 1, friendly_name: 'Probe', type: 2, url: 'https://a.example.com', keyword_type: 2, keyword_value: long, interval: 300 }] },
    'keyword_value',
  ],
  [
    'UptimeRobot v3',
    'uptime-api-monitor',
    {
      data: [
        { id: 1, friendlyName: 'Probe', type: 'KEYWORD', url: 'https://a.example.com', keywordType: 'ALERT_NOT_EXISTS', keywordValue: long, interval: 300 },
      ],
    },
    'keywordValue',
  ],
  [
    'Blackbox HTTP',
    'probe-exporter-config',
    blackbox({ prober: 'http', http: { fail_if_body_not_matches_regexp: [long] } }, 'https://a.example.com'),
    'fail_if_body_not_matches_regexp',
  ],
  [
    'Blackbox TCP',
    'probe-exporter-config',
    blackbox({ prober: 'tcp', tcp: { query_response: [{ expect: long }] } }, 'a.example.com:25'),
    'query_response[0].expect',
  ],
];

// The catalog takes keywords of up to 1,024 characters (importers/shared/http-request.ts importKeywordText).
describe('a keyword longer than 1,024 characters', () => {
  test.each(CASES)('%s: left out with a warning, the monitor imported', async (_name, source, input, field) => {
    const result = await convertImport(source, encode(input));
    expect(result.skipped).toEqual([]);
    expect(result.checks).toHaveLength(1);
    expect(result.checks[0]!.config.keyword).toBeUndefined();
    expect(result.warnings).toContainEqual(expect.objectContaining({ code: 'UNSUPPORTED_SETTING', field, message: expect.stringMatching(/longer than 1024/) }));
  });
});

// The catalog takes 50 headers. A header the check needs besides the source's 50 (its sign-in, a
// Content-Type) takes the place of the last one, which is reported (importers/shared/headers.ts setHeader).
const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`X-H${i}`, `v${i}`]));

const HEADER_CASES: Array<[string, ImportSource, unknown, string, string]> = [
  [
    'Uptime Kuma HTTP, bearer token',
    'selfhosted-monitor-db',
    kuma({ type: 'http', url: 'https://a.example.com', headers: JSON.stringify(fifty), authMethod: 'bearer', bearer_token: 't' }),
    'Authorization',
    'headers.X-H49',
  ],
  [
    'Uptime Kuma HTTP, JSON body',
    'selfhosted-monitor-db',
    kuma({ type: 'http', url: 'https://a.example.com', method: 'POST', body: '{"a":1}', headers: JSON.stringify(fifty) }),
    'Content-Type',
    'headers.X-H49',
  ],
  [
    'Uptime Kuma WebSocket, basic auth',
    'selfhosted-monitor-db',
    kuma({
      type: 'websocket-upgrade',
      url: 'wss://a.example.com/ws',
      headers: JSON.stringify(fifty),
      authMethod: 'basic',
      basic_auth_user: 'u',
      basic_auth_pass: 'p',
    }),
    'Authorization',
    'headers.X-H49',
  ],
  [
    'UptimeRobot v3, JSON body',
    'uptime-api-monitor',
    {
      data: [
        {
          id: 1,
          friendlyName: 'Probe',
          type: 'HTTP',
          url: 'https://a.example.com',
          interval: 300,
          httpMethodType: 'POST',
          postValueData: { a: 1 },
          customHttpHeaders: fifty,
        },
      ],
    },
    'Content-Type',
    'customHttpHeaders.X-H49',
  ],
  [
    'Blackbox HTTP, bearer token',
    'probe-exporter-config',
    blackbox({ prober: 'http', http: { headers: fifty, bearer_token: 't' } }, 'https://a.example.com'),
    'Authorization',
    'headers.X-H49',
  ],
];

describe('a header the check needs besides 50 of the source', () => {
  test.each(HEADER_CASES)('%s: the last source header gives way, with a warning', async (_name, source, input, added, dropped) => {
    const result = await convertImport(source, encode(input));
    expect(result.skipped).toEqual([]);
    const headers = result.checks[0]!.config.headers as Record<string, string>;
    expect(Object.keys(headers)).toHaveLength(50);
    expect(headers).toHaveProperty(added);
    expect(headers).not.toHaveProperty('X-H49');
    expect(result.warnings).toContainEqual(expect.objectContaining({ code: 'UNSUPPORTED_SETTING', field: dropped }));
  });
});

// The catalog takes JSON-query expressions and expected values of up to 1,024 characters.
describe('a JSON query or expected value longer than 1,024 characters', () => {
  test.each([
    [
      'Uptime Kuma MQTT',
      kuma({ type: 'mqtt', hostname: '127.0.0.1', port: 1883, mqttTopic: 't', mqttCheckType: 'json-query', jsonPath: 'v', expectedValue: long }),
      'jsonPath',
    ],
    [
      'Uptime Kuma SNMP',
      kuma({ type: 'snmp', hostname: '127.0.0.1', snmp_version: '2c', snmp_oid: '1.3.6.1.2.1.1.3.0', expectedValue: long }),
      'expectedValue',
    ],
  ])('%s: left out with a warning, the monitor imported', async (_name, input, field) => {
    const result = await convertImport('selfhosted-monitor-db', encode(input));
    expect(result.skipped).toEqual([]);
    expect(result.checks[0]!.config.jsonQueries ?? []).toEqual([]);
    expect(result.checks[0]!.config.condition).toBeUndefined();
    expect(result.warnings).toContainEqual(expect.objectContaining({ code: 'UNSUPPORTED_SETTING', field, message: expect.stringMatching(/longer than 1024/) }));
  });
});

// Text a check sends is bounded (65,536 characters; an SSH command 4,096): a longer one is left out,
// never cut (importers/shared/sent-text.ts).
describe('text to send longer than the catalog takes', () => {
  const huge = 's'.repeat(65_537);
  const gatus = (endpoint: Record<string, unknown>) => dump({ endpoints: [{ name: 'Probe', conditions: ['[CONNECTED] == true'], ...endpoint }] });
  test.each([
    [
      'Uptime Kuma Kafka message',
      'selfhosted-monitor-db',
      kuma({ type: 'kafka-producer', kafkaProducerBrokers: '["127.0.0.1:9092"]', kafkaProducerTopic: 't', kafkaProducerMessage: huge }),
      'kafkaProducerMessage',
    ],
    [
      'UptimeRobot v3 UDP payload',
      'uptime-api-monitor',
      { data: [{ id: 1, friendlyName: 'Probe', type: 'UDP', url: '127.0.0.1', port: 53, interval: 300, config: { udp: { payload: huge } } }] },
      'config.udp.payload',
    ],
    [
      'Blackbox TCP conversation',
      'probe-exporter-config',
      blackbox({ prober: 'tcp', tcp: { query_response: [{ send: huge }] } }, 'a.example.com:25'),
      'query_response',
    ],
    [
      'Gatus SSH command',
      'configfile-monitor',
      gatus({ url: 'ssh://a.example.com:22', ssh: { username: 'u', password: 'p' }, body: JSON.stringify({ command: 'x'.repeat(4097) }) }),
      'body',
    ],
    [
      'Pingdom TCP text to send',
      'hosted-check-api',
      [{ check: { id: 1, name: 'Probe', resolution: 1, hostname: 'a.example.com', status: 'up', type: { tcp: { port: 25, stringtosend: huge } } } }],
      'stringtosend',
    ],
  ] as Array<[string, ImportSource, unknown, string]>)('%s: left out with a warning, the monitor imported', async (_name, source, input, field) => {
    const result = await convertImport(source, encode(input));
    expect(result.skipped).toEqual([]);
    expect(result.checks).toHaveLength(1);
    expect(JSON.stringify(result.checks[0]!.config)).not.toMatch(/sssss|xxxxx/);
    expect(result.warnings).toContainEqual(expect.objectContaining({ code: 'UNSUPPORTED_SETTING', field, message: expect.stringMatching(/longer than/) }));
  });
});

// The catalog takes user names of up to 255 characters (importers/shared/user-name.ts).
describe('a user name longer than 255 characters', () => {
  const user = 'u'.repeat(256);
  test.each([
    [
      'Uptime Kuma MQTT',
      'selfhosted-monitor-db',
      kuma({ type: 'mqtt', hostname: '127.0.0.1', port: 1883, mqttTopic: 't', mqttUsername: user }),
      'mqttUsername',
    ],
    ['Uptime Kuma HTTP, in the URL', 'selfhosted-monitor-db', kuma({ type: 'http', url: `https://${user}@a.example.com/` }), 'url'],
    [
      'Better Stack',
      'hosted-monitor-api',
      {
        data: [
          {
            id: '1',
            type: 'monitor',
            attributes: { pronounceable_name: 'Probe', url: 'https://a.example.com', monitor_type: 'status', check_frequency: 180, auth_username: user },
          },
        ],
      },
      'auth_username',
    ],
    [
      'Uptime Kuma PostgreSQL',
      'selfhosted-monitor-db',
      kuma({ type: 'postgres', databaseConnectionString: `postgres://${user}:pw@127.0.0.1:5432/db` }),
      'databaseConnectionString',
    ],
    [
      'UptimeRobot v2',
      'uptime-api-monitor',
      { stat: 'ok', monitors: [{ id: 1, friendly_name: 'Probe', type: 1, url: 'https://a.example.com', http_username: user, interval: 300 }] },
      'http_username',
    ],
    [
      'Blackbox HTTP',
      'probe-exporter-config',
      blackbox({ prober: 'http', http: { basic_auth: { username: user } } }, 'https://a.example.com'),
      'basic_auth.username',
    ],
    [
      'Gatus SSH',
      'configfile-monitor',
      dump({ endpoints: [{ name: 'Probe', url: 'ssh://a.example.com:22', ssh: { username: user }, conditions: ['[CONNECTED] == true'] }] }),
      'ssh.username',
    ],
    [
      'Pingdom HTTP',
      'hosted-check-api',
      [{ check: { id: 1, name: 'Probe', resolution: 1, hostname: 'a.example.com', status: 'up', type: { http: { url: '/', username: user } } } }],
      'username',
    ],
  ] as Array<[string, ImportSource, unknown, string]>)('%s: left out with a warning, the monitor imported', async (_name, source, input, field) => {
    const result = await convertImport(source, encode(input));
    expect(result.skipped).toEqual([]);
    expect(result.checks).toHaveLength(1);
    expect(JSON.stringify(result.checks[0]!.config)).not.toContain('uuuuu');
    expect(result.warnings).toContainEqual(
      expect.objectContaining({ code: 'UNSUPPORTED_SETTING', field, message: expect.stringMatching(/user name is longer than 255/) }),
    );
  });
});

// A DNS check expects up to 50 answers (importers/shared/expected-values.ts): past them, the check
// accepts fewer answers than the source did, and says so.
describe('more than 50 expected DNS answers', () => {
  const addresses = Array.from({ length: 60 }, (_, i) => `10.0.0.${i + 1}`);
  test.each([
    [
      'Gatus',
      'configfile-monitor',
      dump({
        endpoints: [
          {
            name: 'Probe',
            url: '127.0.0.1',
            dns: { 'query-name': 'example.com', 'query-type': 'A' },
            conditions: addresses.map((address) => `[BODY] == ${address}`),
          },
        ],
      }),
      'conditions',
    ],
    [
      'UptimeRobot v3',
      'uptime-api-monitor',
      { data: [{ id: 1, friendlyName: 'Probe', type: 'DNS', url: 'example.com', interval: 300, config: { dnsRecords: { a: addresses } } }] },
      'config.dnsRecords.a',
    ],
  ] as Array<[string, ImportSource, unknown, string]>)('%s: the first 50 kept, with a warning', async (_name, source, input, field) => {
    const result = await convertImport(source, encode(input));
    expect(result.skipped).toEqual([]);
    expect(result.checks[0]!.config.expectedValues).toEqual(addresses.slice(0, 50));
    expect(result.warnings).toContainEqual(expect.objectContaining({ code: 'UNSUPPORTED_SETTING', field, message: expect.stringMatching(/first 50 of 60/) }));
  });
});
