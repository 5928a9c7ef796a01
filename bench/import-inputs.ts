// Inputs of the import benchmark: 10,000 monitors in each source's own format, varied the way
// real exports are (mostly HTTP, then keyword, port, ping, DNS and heartbeat monitors; groups,
// tags, headers, a secret now and then), generated in memory so no large file is committed.

const TEAMS = ['payments', 'search', 'platform', 'identity', 'growth'];

/** The configfile-monitor input: a YAML configuration with `count` endpoints. */
export function gatusYaml(count: number): string {
  const lines = ['# generated for the import benchmark', 'x-defaults: &defaults', '  interval: 1m', '  client:', '    timeout: 10s', '', 'endpoints:'];
  for (let i = 0; i < count; i++) {
    const host = `svc-${i}.example.com`;
    lines.push('  - <<: *defaults', `    name: Service ${i}`, `    group: ${TEAMS[i % TEAMS.length]}`);
    switch (i % 10) {
      case 0:
      case 1:
      case 2:
      case 3:
        lines.push(`    url: https://${host}/health`, '    conditions:', '      - "[STATUS] == 200"', '      - "[RESPONSE_TIME] < 800"');
        if (i % 20 === 0) lines.push('    headers:', '      Authorization: "Bearer secret-token"');
        break;
      case 4:
      case 5:
        lines.push(`    url: https://${host}/`, '    conditions:', '      - "[STATUS] == 200"', '      - "[BODY] == pat(*OK*)"');
        break;
      case 6:
        lines.push(`    url: tcp://${host}:5432`, '    conditions:', '      - "[CONNECTED] == true"');
        break;
      case 7:
        lines.push(`    url: icmp://${host}`, '    conditions:', '      - "[CONNECTED] == true"');
        break;
      case 8:
        lines.push('    url: 8.8.8.8', '    dns:', `      query-name: ${host}`, '      query-type: A', '    conditions:', '      - "[DNS_RCODE] == NOERROR"');
        break;
      default:
        lines.push(`    url: https://${host}/api`, '    conditions:', '      - "[STATUS] < 400"', '      - "[CERTIFICATE_EXPIRATION] > 48h"');
        if (i % 30 === 9) lines.push('    alerts:', '      - type: slack');
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The uptime-api-monitor input: a v2 `getMonitors` answer with `count` monitors. */
export function uptimeRobotJson(count: number): string {
  const monitors = Array.from({ length: count }, (_, i) => {
    const host = `svc-${i}.example.com`;
    const base = { id: 700000 + i, friendly_name: `Service ${i}`, interval: 300, timeout: 30, status: i % 50 === 0 ? 0 : 2, create_datetime: 1700000000 };
    switch (i % 10) {
      case 0:
      case 1:
      case 2:
      case 3:
        return { ...base, type: 1, url: `https://${host}/health`, sub_type: '', port: '', keyword_type: null, http_method: 2 };
      case 4:
      case 5:
        return { ...base, type: 2, url: `https://${host}/`, keyword_type: 2, keyword_case_type: 0, keyword_value: 'OK', sub_type: '', port: '' };
      case 6:
        return { ...base, type: 4, url: host, sub_type: 99, port: '5432' };
      case 7:
        return { ...base, type: 3, url: host, sub_type: '', port: '' };
      case 8:
        return { ...base, type: 4, url: host, sub_type: '2', port: null };
      default:
        return {
          ...base,
          type: 1,
          url: `https://${host}/api`,
          http_method: 3,
          post_type: 2,
          post_value: '{"probe":true}',
          post_content_type: 1,
          http_username: i % 20 === 9 ? 'ops' : '',
          http_password: i % 20 === 9 ? 'pw' : '',
        };
    }
  });
  return JSON.stringify({ stat: 'ok', pagination: { offset: 0, limit: count, total: count }, monitors });
}

/** One monitor of the hosted monitoring API, as a JSON:API resource. */
function hostedMonitor(i: number): unknown {
  const host = `svc-${i}.example.com`;
  const attributes: Record<string, unknown> = {
    pronounceable_name: `Service ${i}`,
    check_frequency: 180,
    paused: i % 50 === 0,
    status: 'up',
    regions: ['us', 'eu'],
    email: true,
    call: false,
    sms: false,
    push: true,
    monitor_group_id: null,
  };
  switch (i % 10) {
    case 0:
    case 1:
    case 2:
    case 3:
      Object.assign(attributes, {
        monitor_type: 'status',
        url: `https://${host}/health`,
        request_timeout: 30,
        http_method: 'get',
        verify_ssl: true,
        follow_redirects: true,
      });
      break;
    case 4:
    case 5:
      Object.assign(attributes, { monitor_type: 'keyword', url: `https://${host}/`, required_keyword: 'OK', request_timeout: 30, http_method: 'get' });
      break;
    case 6:
      Object.assign(attributes, { monitor_type: 'tcp', url: host, port: '5432', request_timeout: 5000 });
      break;
    case 7:
      Object.assign(attributes, { monitor_type: 'ping', url: host, request_timeout: 2000 });
      break;
    case 8:
      Object.assign(attributes, { monitor_type: 'dns', url: host, request_timeout: 2000 });
      break;
    default:
      Object.assign(attributes, {
        monitor_type: 'expected_status_code',
        url: `https://${host}/api`,
        expected_status_codes: [200, 204],
        request_headers: [{ name: 'Accept', value: 'application/json' }],
        auth_username: i % 20 === 9 ? 'ops' : '',
        auth_password: i % 20 === 9 ? 'pw' : '',
        request_timeout: 30,
        http_method: 'post',
        request_body: '{"probe":true}',
      });
  }
  return { id: String(900000 + i), type: 'monitor', attributes };
}

/**
 * The pages the hosted monitoring API answers for `count` monitors, `perPage` a page, each
 * linking to the next under `baseUrl` as the real API does.
 */
export function hostedMonitorPages(count: number, perPage: number, baseUrl: string): string[] {
  const pages: string[] = [];
  const last = Math.max(1, Math.ceil(count / perPage));
  for (let page = 1; page <= last; page++) {
    const data = [];
    for (let i = (page - 1) * perPage; i < Math.min(count, page * perPage); i++) data.push(hostedMonitor(i));
    const link = (n: number) => `${baseUrl}/api/v2/monitors?page=${n}`;
    pages.push(
      JSON.stringify({
        data,
        pagination: { first: link(1), last: link(last), prev: page > 1 ? link(page - 1) : null, next: page < last ? link(page + 1) : null },
      }),
    );
  }
  return pages;
}

/** The cron monitor's checks listing (Management API v3) with `count` checks: simple and cron checks in turn. */
export function cronMonitorJson(count: number): string {
  const checks = Array.from({ length: count }, (_, i) => ({
    name: `Job ${i}`,
    tags: `bench team-${i % 10}`,
    grace: 300,
    status: 'up',
    manual_resume: false,
    methods: '',
    ping_url: `https://hc-ping.example.com/${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`,
    ...(i % 2 === 0 ? { timeout: 3600 } : { schedule: '15 2 * * *', tz: 'Europe/Berlin' }),
  }));
  return JSON.stringify({ checks });
}
