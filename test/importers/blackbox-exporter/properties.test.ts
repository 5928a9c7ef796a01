import { dump } from 'js-yaml';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { convertProbeExporterConfig } from '../../../importers/blackbox-exporter/index.js';
import { fileBundleText } from '../../../importers/shared/file-bundle.js';
import { convertOrRefuse, expectWellFormed } from '../shared/fixture-table.js';
import { fixtureFiles } from './fixture-bundle.js';

// Whatever the files hold, the converter refuses the input as a whole with an ImportInputError
// or returns checks the catalog accepts as they are, the same for the same input.

const loose: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(
    '',
    '0',
    '5s',
    '1m30s',
    '-1s',
    'abc',
    'ip4',
    'ip6',
    'ANY',
    'TXT',
    'NXDOMAIN',
    '^SSH-2.0-',
    'ok',
    '(a|b)',
    '[',
    '__proto__',
    null,
    true,
    false,
    0,
    70000,
  ),
  fc.constantFrom(
    [200, '2xx', 99],
    ['NOERROR', 'SERVFAIL'],
    [{ expect: 'x' }, { send: 'y' }, { starttls: true }],
    { username: 'u', password: 'p' },
    { insecure_skip_verify: true },
  ),
);
const PROBER_KEYS = [
  'valid_status_codes',
  'method',
  'headers',
  'body',
  'fail_if_body_matches_regexp',
  'fail_if_body_not_matches_regexp',
  'fail_if_ssl',
  'fail_if_not_ssl',
  'tls_config',
  'basic_auth',
  'authorization',
  'follow_redirects',
  'query_response',
  'tls',
  'query_name',
  'query_type',
  'valid_rcodes',
  'validate_answer_rrs',
  'preferred_ip_protocol',
  'ip_protocol_fallback',
  'payload_size',
  'ttl',
  'service',
  'metadata',
];
const JOB_KEYS = ['scrape_interval', 'scrape_timeout', 'params', 'relabel_configs', 'file_sd_configs', 'static_configs', 'metrics_path'];
const PROBERS = ['http', 'tcp', 'icmp', 'dns', 'grpc', 'unix', 'websocket', '', 'toString'];
const TARGETS = ['https://a.example.com/x', 'a.example.com', 'a.example.com:443', '[::1]:80', '192.0.2.1', '', 'http://u:p@a.example.com', 'not a host'];

const module = fc.record({
  prober: fc.constantFrom(...PROBERS),
  timeout: fc.option(loose, { freq: 3 }),
  settings: fc.dictionary(fc.constantFrom(...PROBER_KEYS), loose, { maxKeys: 6 }),
});

const job = fc.record({
  module: fc.constantFrom('a', 'b', 'c', 'missing'),
  targets: fc.array(fc.constantFrom(...TARGETS), { minLength: 1, maxLength: 4 }),
  extra: fc.option(fc.dictionary(fc.constantFrom(...JOB_KEYS), loose, { maxKeys: 1 }), { freq: 3 }),
});

function bundle(modules: Record<string, fc.Infer<typeof module>>, jobs: fc.Infer<typeof job>[]): string {
  const blackbox = {
    modules: Object.fromEntries(Object.entries(modules).map(([name, m]) => [name, { prober: m.prober, timeout: m.timeout, [m.prober]: m.settings }])),
  };
  const prometheus = {
    scrape_configs: jobs.map((j, i) => ({
      job_name: `job${i}`,
      metrics_path: '/probe',
      params: { module: [j.module] },
      static_configs: [{ targets: j.targets, labels: { team: 'x' } }],
      relabel_configs: [{ source_labels: ['__address__'], target_label: '__param_target' }],
      ...(j.extra ?? {}),
    })),
  };
  return fileBundleText([
    ['prometheus.yml', dump(prometheus)],
    ['blackbox.yml', dump(blackbox)],
  ]);
}

describe('random configurations', () => {
  test('modules and jobs of any shape convert probe by probe into checks the catalog accepts, deterministically', () => {
    let produced = 0;
    fc.assert(
      fc.property(fc.record({ a: module, b: module, c: module }), fc.array(job, { maxLength: 4 }), (modules, jobs) => {
        const input = bundle(modules, jobs);
        const result = convertOrRefuse(convertProbeExporterConfig, input);
        expect(result).toBeDefined();
        expectWellFormed(result!, 'probe-exporter-config');
        expect(convertProbeExporterConfig(input)).toEqual(result);
        produced += result!.checks.length;
      }),
      { numRuns: 200 },
    );
    // Most random modules are unusable, so a few checks per run: enough to see the mapping work.
    expect(produced).toBeGreaterThan(30);
  });

  test('any YAML or JSON text, alone or as a bundle, is refused or converted', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), fc.boolean(), (value, asBundle) => {
        const text = asBundle ? JSON.stringify({ files: { 'a.yml': dump(value ?? null) } }) : (JSON.stringify(value) ?? 'null');
        const result = convertOrRefuse(convertProbeExporterConfig, text);
        if (result) expectWellFormed(result, 'probe-exporter-config');
      }),
      { numRuns: 300 },
    );
  });

  test('each cut of the fixture files is refused or converted, never thrown otherwise', () => {
    const files = fixtureFiles('probes');
    fc.assert(
      fc.property(fc.nat({ max: files.length - 1 }), fc.nat(), (which, at) => {
        const cut = files.map(([name, text], i): [string, string] => [name, i === which ? text.slice(0, at % (text.length + 1)) : text]);
        const result = convertOrRefuse(convertProbeExporterConfig, fileBundleText(cut));
        if (result) expectWellFormed(result, 'probe-exporter-config');
      }),
      { numRuns: 200 },
    );
  });
});
