import { dump } from 'js-yaml';
import { describe, expect, test } from 'vitest';
import { convertProbeExporterConfig } from '../../../importers/blackbox-exporter/index.js';
import { fileBundleText } from '../../../importers/shared/file-bundle.js';

// Each case states what the exporter does (the Go file of prometheus/blackbox_exporter that
// does it) and what the imported check does about it: the same through explicit settings, or a
// warning. A difference without a warning would be a bug.

const RELABEL = [
  { source_labels: ['__address__'], target_label: '__param_target' },
  { target_label: '__address__', replacement: '127.0.0.1:9115' },
];

function convert(module: Record<string, unknown>, target: string, job: Record<string, unknown> = {}, global: Record<string, unknown> = {}) {
  const prometheus = {
    global,
    scrape_configs: [
      { job_name: 'probe', metrics_path: '/probe', params: { module: ['m'] }, static_configs: [{ targets: [target] }], relabel_configs: RELABEL, ...job },
    ],
  };
  const result = convertProbeExporterConfig(
    fileBundleText([
      ['prometheus.yml', dump(prometheus)],
      ['blackbox.yml', dump({ modules: { m: module } })],
    ]),
  );
  return { check: result.checks[0], warnings: result.warnings, skipped: result.skipped };
}

const codes = (warnings: { code: string; field?: string }[]) => warnings.map((w) => `${w.code} ${w.field}`);

describe('the http prober', () => {
  test('prober/http.go: without valid_status_codes, 200-299 is up; with them, exactly those', () => {
    expect(convert({ prober: 'http' }, 'https://a.example.com').check.config.expectedStatusCodes).toEqual(['200-299']);
    expect(convert({ prober: 'http', http: { valid_status_codes: [200, 301] } }, 'https://a.example.com').check.config.expectedStatusCodes).toEqual([200, 301]);
  });

  test('prober/http.go: a target without a scheme is requested over http://', () => {
    expect(convert({ prober: 'http' }, 'a.example.com:8080/ping').check.target).toBe('http://a.example.com:8080/ping');
  });

  test('prober/http.go: GET unless method says otherwise; headers and body are sent', () => {
    const { check } = convert({ prober: 'http', http: { method: 'put', headers: { 'X-A': 'b' }, body: 'x=1' } }, 'https://a.example.com');
    expect(check.config).toMatchObject({ method: 'PUT', headers: { 'X-A': 'b' }, body: 'x=1' });
  });

  test('config/config.go (HTTPClientConfig default): redirects are followed unless follow_redirects: false', () => {
    expect(convert({ prober: 'http' }, 'https://a.example.com').check.config.followRedirects).toBe(true);
    expect(convert({ prober: 'http', http: { follow_redirects: false } }, 'https://a.example.com').check.config.followRedirects).toBe(false);
    expect(convert({ prober: 'http', http: { no_follow_redirects: true } }, 'https://a.example.com').check.config.followRedirects).toBe(false);
  });

  test('prober/http.go matchRegularExpressions: a plain-text body expression becomes the keyword; a pattern is a warning', () => {
    const absent = convert({ prober: 'http', http: { fail_if_body_matches_regexp: ['Database error'] } }, 'https://a.example.com');
    expect(absent.check.config.keyword).toEqual({ value: 'Database error', expect: 'absent', caseSensitive: true });
    const present = convert({ prober: 'http', http: { fail_if_body_not_matches_regexp: ['ok\\.'] } }, 'https://a.example.com');
    expect(present.check.config.keyword).toEqual({ value: 'ok.', expect: 'present', caseSensitive: true });
    const pattern = convert({ prober: 'http', http: { fail_if_body_not_matches_regexp: ['^ok$'] } }, 'https://a.example.com');
    expect(pattern.check.config.keyword).toBeUndefined();
    expect(codes(pattern.warnings)).toEqual(['UNSUPPORTED_SETTING fail_if_body_not_matches_regexp']);
  });

  test('prober/http.go: fail_if_ssl and fail_if_not_ssl (unless an https URL without redirects) are warnings', () => {
    expect(codes(convert({ prober: 'http', http: { fail_if_ssl: true } }, 'http://a.example.com').warnings)).toEqual(['UNSUPPORTED_SETTING fail_if_ssl']);
    expect(codes(convert({ prober: 'http', http: { fail_if_not_ssl: true } }, 'https://a.example.com').warnings)).toEqual([
      'UNSUPPORTED_SETTING fail_if_not_ssl',
    ]);
    expect(convert({ prober: 'http', http: { fail_if_not_ssl: true, follow_redirects: false } }, 'https://a.example.com').warnings).toEqual([]);
  });

  test('prober/http.go: tls_config.insecure_skip_verify accepts any certificate; basic_auth signs in with a secret', () => {
    const { check, warnings } = convert(
      { prober: 'http', http: { tls_config: { insecure_skip_verify: true }, basic_auth: { username: 'u', password: 'p' } } },
      'https://a.example.com',
    );
    expect(check.config).toMatchObject({ ignoreTlsErrors: true, basicAuthUser: 'u', basicAuthPassword: '{{secrets.HTTPS_A_EXAMPLE_COM_M_PASSWORD}}' });
    expect(codes(warnings)).toEqual(['SECRET_DROPPED basic_auth.password']);
  });

  // Go's net/http client.go (send) turns a URL's user:password@ into basic auth unless the request
  // has an Authorization header; prometheus/common's round trippers add basic_auth and bearer
  // tokens only to a request without one.
  test('net/http client.go: credentials in the target URL sign in with basic auth, ahead of basic_auth; never left in the URL', () => {
    const { check, warnings, skipped } = convert(
      { prober: 'http', http: { basic_auth: { username: 'u', password: 'p' } } },
      'https://ops:s3cr%40t@a.example.com/health',
    );
    expect(skipped).toEqual([]);
    expect(check.target).toBe('https://a.example.com/health');
    expect(check.config).toMatchObject({ basicAuthUser: 'ops', basicAuthPassword: '{{secrets.HTTPS_A_EXAMPLE_COM_HEALTH_M_PASSWORD}}' });
    expect(codes(warnings)).toEqual(['SECRET_DROPPED target', 'UNSUPPORTED_SETTING basic_auth']);
    expect(JSON.stringify(check)).not.toContain('s3cr');
  });

  test('the credentials of a target are in neither the name, the warnings nor the labels', () => {
    const job = { relabel_configs: [...RELABEL, { source_labels: ['__param_target'], target_label: 'url' }] };
    const { check, warnings } = convert({ prober: 'http' }, 'ops:s3cr3t@a.example.com:8080/ping', job);
    expect(check.target).toBe('http://a.example.com:8080/ping');
    expect(check.name).toBe('a.example.com:8080/ping (m)');
    expect(check.labels).toMatchObject({ url: 'a.example.com:8080/ping' });
    expect(JSON.stringify({ check, warnings })).not.toMatch(/s3cr3t|ops:/);
  });

  test("net/http client.go: the module's Authorization header beats the URL's credentials", () => {
    const { check, warnings } = convert({ prober: 'http', http: { headers: { Authorization: 'Bearer abc' } } }, 'https://ops:pw@a.example.com');
    expect(check.target).toBe('https://a.example.com/');
    expect(check.config.basicAuthUser).toBeUndefined();
    expect(check.config.headers).toEqual({ Authorization: 'Bearer {{secrets.HTTPS_A_EXAMPLE_COM_M_AUTHORIZATION}}' });
    expect(codes(warnings)).toEqual(['SECRET_DROPPED headers.Authorization', 'SECRET_DROPPED target', 'UNSUPPORTED_SETTING target']);
  });

  test("prometheus/common config/http_config.go: basic_auth and bearer tokens are added only to a request without an Authorization header; the module's header wins", () => {
    const { check, warnings } = convert({ prober: 'http', http: { headers: { Authorization: 'Token abc' }, bearer_token: 't' } }, 'https://a.example.com');
    expect(check.config.headers).toEqual({ Authorization: 'Token {{secrets.HTTPS_A_EXAMPLE_COM_M_AUTHORIZATION}}' });
    expect(codes(warnings)).toEqual(['SECRET_DROPPED headers.Authorization', 'UNSUPPORTED_SETTING bearer_token']);
    const basic = convert(
      { prober: 'http', http: { headers: { Authorization: 'Token abc' }, basic_auth: { username: 'u', password: 'p' } } },
      'https://a.example.com',
    );
    expect(basic.check.config.basicAuthUser).toBeUndefined();
    expect(codes(basic.warnings)).toEqual(['SECRET_DROPPED headers.Authorization', 'UNSUPPORTED_SETTING basic_auth']);
  });

  test('prober/utils.go: IPv6 preferred with fallback to IPv4 is no warning; a family without fallback is', () => {
    expect(convert({ prober: 'http', http: { preferred_ip_protocol: 'ip4' } }, 'https://a.example.com').warnings).toEqual([]);
    expect(codes(convert({ prober: 'http', http: { preferred_ip_protocol: 'ip6', ip_protocol_fallback: false } }, 'https://a.example.com').warnings)).toEqual([
      'UNSUPPORTED_SETTING ip_protocol_fallback',
    ]);
  });
});

describe('the hostname parameter', () => {
  // prober/http.go cannot request a target that is no URL either: that probe is skipped, and the
  // import goes on with the others.
  test('with a target that is no URL, the probe is skipped, not the import', () => {
    const { check, skipped } = convert({ prober: 'http' }, 'https://shop example.com:99999/', { params: { module: ['m'], hostname: ['shop.example.com'] } });
    expect(check).toBeUndefined();
    expect(skipped).toEqual([expect.objectContaining({ reason: 'INVALID_ITEM' })]);
  });
});

describe('timeouts, pace and modules', () => {
  test('prober/handler.go getTimeout: the scrape timeout less 0.5 s, or the module timeout when shorter', () => {
    expect(convert({ prober: 'http' }, 'https://a.example.com').check.thresholds.timeoutMs).toBe(9500);
    expect(convert({ prober: 'http', timeout: '3s' }, 'https://a.example.com').check.thresholds.timeoutMs).toBe(3000);
    expect(convert({ prober: 'http', timeout: '30s' }, 'https://a.example.com', { scrape_timeout: '20s' }).check.thresholds.timeoutMs).toBe(19_500);
  });

  test("Prometheus' defaults: a 1 m interval and 10 s timeout; the job's or the global settings win", () => {
    expect(convert({ prober: 'http' }, 'https://a.example.com').check.intervalSeconds).toBe(60);
    expect(convert({ prober: 'http' }, 'https://a.example.com', {}, { scrape_interval: '15s' }).check.intervalSeconds).toBe(15);
    expect(convert({ prober: 'http' }, 'https://a.example.com', { scrape_interval: '2m' }, { scrape_interval: '15s' }).check.intervalSeconds).toBe(120);
  });

  test('prober/handler.go: a request without a module probes with http_2xx', () => {
    const prometheus = {
      scrape_configs: [{ job_name: 'j', metrics_path: '/probe', static_configs: [{ targets: ['https://a.example.com'] }], relabel_configs: RELABEL }],
    };
    const result = convertProbeExporterConfig(
      fileBundleText([
        ['p.yml', dump(prometheus)],
        ['b.yml', dump({ modules: { http_2xx: { prober: 'http' } } })],
      ]),
    );
    expect(result.checks.map((check) => check.name)).toEqual(['https://a.example.com (http_2xx)']);
  });

  test('probe_success is the verdict of each scrape: down on the first failure, up on the first success', () => {
    expect(convert({ prober: 'icmp' }, 'a.example.com').check.thresholds).toMatchObject({ failuresBeforeDown: 1, successesBeforeUp: 1 });
  });
});

describe('the tcp, icmp, dns and grpc probers', () => {
  test('prober/query_response.go: each send is written with a line break; a plain expect is the keyword', () => {
    const { check } = convert({ prober: 'tcp', tcp: { query_response: [{ send: 'PING' }, { expect: '+PONG' }] } }, 'cache.example.com:6379');
    expect(check).toMatchObject({ type: 'tcp', target: 'cache.example.com:6379' });
    // "+PONG" is a pattern (a repetition with nothing before it); "PONG" is plain text.
    const plain = convert({ prober: 'tcp', tcp: { query_response: [{ send: 'PING' }, { expect: 'PONG' }] } }, 'cache.example.com:6379');
    expect(plain.check.config).toEqual({ send: 'PING\n', keyword: { value: 'PONG', expect: 'present', caseSensitive: true }, invert: false });
  });

  test('prober/tcp.go: tls: true without a conversation is a verified TLS handshake', () => {
    expect(convert({ prober: 'tcp', tcp: { tls: true } }, 'a.example.com:443').check).toMatchObject({ type: 'tls', target: 'a.example.com:443' });
  });

  test('prober/icmp.go: one echo request with payload_size bytes', () => {
    expect(convert({ prober: 'icmp', icmp: { payload_size: 100 } }, 'a.example.com').check.config).toEqual({ count: 1, packetSize: 100, invert: false });
  });

  test('prober/dns.go: the target is the server; query type ANY by default (a warning), NOERROR the valid rcode', () => {
    const { check, warnings } = convert({ prober: 'dns', dns: { query_name: 'example.com' } }, '192.0.2.53');
    expect(check).toMatchObject({ type: 'dns', target: 'example.com', config: { recordType: 'A', resolver: '192.0.2.53', expectedRcode: 'NOERROR' } });
    expect(codes(warnings)).toEqual(['UNSUPPORTED_SETTING query_type']);
    const nx = convert({ prober: 'dns', dns: { query_name: 'gone.example.com', query_type: 'A', valid_rcodes: ['NXDOMAIN'] } }, '192.0.2.53');
    expect(nx.check.config.expectedRcode).toBe('NXDOMAIN');
    expect(nx.warnings).toEqual([]);
  });

  test('prober/grpc.go: Health/Check for the service, SERVING is up; tls and tls_config carry over', () => {
    const { check } = convert({ prober: 'grpc', grpc: { service: 's', tls: true, tls_config: { insecure_skip_verify: true } } }, 'a.example.com:50051');
    expect(check).toMatchObject({ type: 'grpc', config: { service: 's', useTls: true, ignoreTlsErrors: true } });
  });

  test('prober/dns.go: a server written as a bare IPv6 address is asked on port 53', () => {
    const { check, skipped } = convert({ prober: 'dns', dns: { query_name: 'example.com', query_type: 'A' } }, '2001:db8::53');
    expect(skipped).toEqual([]);
    expect(check.config.resolver).toBe('[2001:db8::53]');
  });

  test('prober/grpc.go: http:// or https:// and a path are dropped; a target without a port is dialed on 80, or 443 with tls', () => {
    expect(convert({ prober: 'grpc' }, 'https://a.example.com:50051/x').check.target).toBe('a.example.com:50051');
    expect(convert({ prober: 'grpc' }, 'a.example.com').check.target).toBe('a.example.com:80');
    expect(convert({ prober: 'grpc', grpc: { tls: true } }, 'http://a.example.com').check.target).toBe('a.example.com:443');
    expect(convert({ prober: 'grpc', grpc: { tls: true } }, 'a.example.com:80').check.target).toBe('a.example.com:80');
    expect(convert({ prober: 'grpc' }, '[2001:db8::1]').check.target).toBe('[2001:db8::1]:80');
  });

  test('prober/unix.go and prober/websocket.go have no equivalent here: the probe is skipped', () => {
    expect(convert({ prober: 'unix' }, '/run/a.sock').skipped[0]).toMatchObject({ reason: 'UNSUPPORTED_TYPE' });
  });
});
