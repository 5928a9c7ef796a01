import { describe, expect, test } from 'vitest';
import { ImportInputError } from '../../../importers/converter.js';
import { convertUptimeApiMonitor } from '../../../importers/uptimerobot/index.js';

function convertOne(monitor: Record<string, unknown>) {
  return convertUptimeApiMonitor(JSON.stringify({ stat: 'ok', monitors: [{ id: 1, friendly_name: 'M', interval: 300, ...monitor }] }));
}

function refusal(input: string): string {
  try {
    convertUptimeApiMonitor(input);
  } catch (error) {
    if (error instanceof ImportInputError) return error.message;
    throw error;
  }
  throw new Error('accepted');
}

describe('v2 code encodings', () => {
  test.each([
    ['a number', 4],
    ['a numeric string', '4'],
  ])('sub_type as %s', (_name, subType) => {
    const [check] = convertOne({ type: 4, sub_type: subType, url: 'mail.example.com', port: '' }).checks;
    expect(check).toMatchObject({ type: 'smtp', target: 'mail.example.com:25' });
  });

  test.each([
    ['""', ''],
    ['null', null],
    ['absent', undefined],
  ])('sub_type %s with a port is a custom TCP port', (_name, subType) => {
    const [check] = convertOne({ type: 4, sub_type: subType, url: 'db.example.com', port: 6379 }).checks;
    expect(check).toMatchObject({ type: 'tcp', target: 'db.example.com:6379' });
  });

  test.each([
    [1, 'HEAD'],
    [2, 'GET'],
    [3, 'POST'],
    [4, 'PUT'],
    [5, 'PATCH'],
    [6, 'DELETE'],
    [7, 'OPTIONS'],
    ['3', 'POST'],
    ['', 'GET'],
    [null, 'GET'],
  ])('http_method %j is %s', (code, method) => {
    const [check] = convertOne({ type: 1, url: 'https://example.com', http_method: code }).checks;
    expect(check.config).toMatchObject({ method });
  });

  test.each([
    [1, 0, 'absent', true],
    [1, 1, 'absent', false],
    [2, 0, 'present', true],
    ['2', '1', 'present', false],
    [2, '', 'present', true],
    [2, null, 'present', true],
  ])('keyword_type %j and keyword_case_type %j: %s, case-sensitive %s', (type, caseType, expect_, caseSensitive) => {
    const [check] = convertOne({
      type: 2,
      url: 'https://example.com',
      keyword_type: type,
      keyword_case_type: caseType,
      keyword_value: 'OK',
    }).checks;
    expect(check.config).toMatchObject({ keyword: { value: 'OK', expect: expect_, caseSensitive } });
  });

  test.each([
    [0, false],
    ['0', false],
    [1, true],
    [2, true],
    [8, true],
    [9, true],
  ])('status %j: enabled %s', (status, enabled) => {
    expect(convertOne({ type: 3, url: 'example.com', status }).checks[0].enabled).toBe(enabled);
  });

  test.each([
    [1, 'http'],
    [2, 'http'],
    [3, 'icmp'],
    [4, 'tcp'],
    [5, 'heartbeat'],
  ])('type %d becomes a %s check', (type, checkType) => {
    const [check] = convertOne({ type, url: 'https://example.com', keyword_value: 'x', keyword_type: 2, port: 8080 }).checks;
    expect(check.type).toBe(checkType);
  });

  test('HTTP basic credentials: user kept, password a reference to the secret the warning names', () => {
    const result = convertOne({ type: 1, url: 'https://example.com', http_username: 'u', http_password: 'p', http_auth_type: '1' });
    const name = `${result.checks[0].slug.toUpperCase().replace(/-/g, '_')}_PASSWORD`;
    expect(result.checks[0].config).toMatchObject({ basicAuthUser: 'u', basicAuthPassword: `{{secrets.${name}}}` });
    expect(result.warnings).toEqual([
      expect.objectContaining({
        code: 'SECRET_DROPPED',
        field: 'http_password',
        message: expect.stringContaining(`set secret ${name} (svc secrets set ${name})`),
      }),
    ]);
    expect(JSON.stringify(result)).not.toContain('"p"');
  });

  // The catalog refuses a URL with credentials: they used to leave the monitor out (INVALID_ITEM).
  test('credentials in the URL become basic auth and leave the URL', () => {
    const result = convertOne({ type: 1, url: 'https://ops:s3cret@example.com/health' });
    expect(result.skipped).toEqual([]);
    expect(result.checks[0]).toMatchObject({
      target: 'https://example.com/health',
      config: { basicAuthUser: 'ops', basicAuthPassword: expect.stringMatching(/^\{\{secrets\./) },
    });
    expect(result.warnings).toMatchObject([{ code: 'SECRET_DROPPED', field: 'url' }]);
    expect(JSON.stringify(result)).not.toContain('s3cret');
  });

  test("the monitor's own HTTP authentication wins over credentials in the URL, which still leave it", () => {
    const result = convertOne({ type: 1, url: 'https://ops:s3cret@example.com/', http_username: 'u', http_password: 'p', http_auth_type: '1' });
    expect(result.checks[0]).toMatchObject({ target: 'https://example.com/', config: { basicAuthUser: 'u' } });
    expect(result.warnings.map((warning) => [warning.code, warning.field])).toEqual([
      ['SECRET_DROPPED', 'http_password'],
      ['SECRET_DROPPED', 'url'],
    ]);
    expect(JSON.stringify(result)).not.toContain('s3cret');
  });
});

describe('input that is not a monitors listing', () => {
  test('the API error reply is refused with its message', () => {
    const reply = JSON.stringify({
      stat: 'fail',
      error: { type: 'invalid_parameter', parameter_name: 'api_key', passed_value: 'x', message: 'api_key is invalid.' },
    });
    expect(refusal(reply)).toBe(
      'expected the JSON returned by the UptimeRobot API v2 getMonitors (an object with a `monitors` list) or by GET /v3/monitors, ' +
        "but the input is the API's error reply: api_key is invalid. (invalid_parameter)",
    );
  });

  test.each([
    ['empty', ''],
    ['truncated JSON', '{"stat": "ok", "monitors": [{"id": 1, "friendly_name": "A'],
    ['YAML', 'endpoints:\n  - name: a\n'],
    ['a number', '42'],
    ['an object without monitors', '{"stat": "ok"}'],
    ['monitors that are not a list', '{"stat": "ok", "monitors": {}}'],
  ])('%s is refused', (_name, input) => {
    expect(refusal(input)).toMatch(/^expected the JSON returned by the UptimeRobot API v2 getMonitors/);
  });

  test('an empty listing has no checks', () => {
    expect(convertUptimeApiMonitor('{"stat": "ok", "monitors": []}')).toEqual({ checks: [], warnings: [], skipped: [] });
    expect(convertUptimeApiMonitor('[]')).toEqual({ checks: [], warnings: [], skipped: [] });
  });

  test('progress is reported', () => {
    const calls: [number, number][] = [];
    const monitors = [1, 2, 3].map((id) => ({ id, friendly_name: `m${id}`, type: 3, url: 'example.com' }));
    convertUptimeApiMonitor(JSON.stringify({ stat: 'ok', monitors }), { onProgress: (done, total) => calls.push([done, total]) });
    expect(calls).toEqual([[3, 3]]);
  });

  test('a page that announces more monitors says so', () => {
    const result = convertUptimeApiMonitor(
      JSON.stringify({ stat: 'ok', pagination: { offset: 0, limit: 1, total: 3 }, monitors: [{ id: 1, friendly_name: 'A', type: 3, url: 'a.example.com' }] }),
    );
    expect(result.warnings).toEqual([expect.objectContaining({ item: 'pagination', message: expect.stringMatching(/monitors 1 to 1 of 3/) })]);
  });
});

describe('v3 heartbeat monitors', () => {
  // The check's grace time is bounded to 7 days; a longer one used to leave the monitor out (INVALID_ITEM).
  test.each([
    [1_000_000, 604_800],
    [-5, 0],
  ])('a grace period of %i s becomes %i s, with a warning', (gracePeriod, expected) => {
    const result = convertUptimeApiMonitor(JSON.stringify({ data: [{ id: 1, friendlyName: 'Nightly job', type: 'HEARTBEAT', interval: 3600, gracePeriod }] }));
    expect(result.skipped).toEqual([]);
    expect(result.checks[0]!.config).toMatchObject({ graceSeconds: expected });
    expect(result.warnings).toContainEqual(expect.objectContaining({ code: 'VALUE_ADJUSTED', field: 'gracePeriod' }));
  });
});
