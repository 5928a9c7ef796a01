import { describe, expect, test } from 'vitest';
import { validateCheck, type CheckValidation } from '../../checks/index.js';

const minimal = { name: 'Homepage', type: 'http', target: 'https://example.com/' };

function issuesOf(result: CheckValidation) {
  if (result.ok) throw new Error(`expected problems, got ${JSON.stringify(result.check)}`);
  return result.issues;
}

function pathsOf(input: unknown): string[] {
  return issuesOf(validateCheck(input)).map((issue) => issue.path);
}

describe('validateCheck: normalisation', () => {
  test('fills every default and derives the slug from the name', () => {
    expect(validateCheck(minimal)).toEqual({
      ok: true,
      check: {
        slug: 'homepage',
        name: 'Homepage',
        type: 'http',
        enabled: true,
        intervalSeconds: 60,
        target: 'https://example.com/',
        config: {
          method: 'GET',
          headers: {},
          expectedStatusCodes: ['200-299'],
          jsonQueries: [],
          followRedirects: true,
          maxRedirects: 10,
          ignoreTlsErrors: false,
          invert: false,
        },
        thresholds: { timeoutMs: 10_000, failuresBeforeDown: 2, successesBeforeUp: 1 },
        labels: {},
      },
    });
  });

  test('keeps a given slug, description and partial thresholds', () => {
    const result = validateCheck({
      ...minimal,
      slug: 'home',
      name: '  Home page  ',
      description: 'The marketing site',
      thresholds: { degradedResponseMs: 800 },
      labels: { team: 'web', 'Production DB': '' },
      enabled: false,
      intervalSeconds: 30,
    });
    expect(result.ok && result.check).toMatchObject({
      slug: 'home',
      name: 'Home page',
      description: 'The marketing site',
      enabled: false,
      intervalSeconds: 30,
      thresholds: { timeoutMs: 10_000, degradedResponseMs: 800, failuresBeforeDown: 2, successesBeforeUp: 1 },
      labels: { team: 'web', 'Production DB': '' },
    });
  });

  test('stores JSON expected values as text', () => {
    const result = validateCheck({
      ...minimal,
      config: {
        jsonQueries: [
          { expression: 'count', operator: '>=', expected: 3 },
          { expression: 'healthy', expected: true },
        ],
      },
    });
    expect(result.ok && result.check.type === 'http' && result.check.config.jsonQueries).toEqual([
      { expression: 'count', operator: '>=', expected: '3' },
      { expression: 'healthy', operator: '==', expected: 'true' },
    ]);
  });

  test('does not change the input', () => {
    const input = structuredClone({ ...minimal, config: { headers: { Accept: 'text/html' } } });
    const before = structuredClone(input);
    validateCheck(input);
    expect(input).toEqual(before);
  });
});

describe('validateCheck: problems', () => {
  test('reports every problem with its path, common fields and config alike', () => {
    const result = validateCheck({
      slug: 'Not A Slug',
      name: '',
      type: 'http',
      enabled: 'yes',
      intervalSeconds: 5,
      target: 'example.com',
      config: {
        method: 'FETCH',
        expectedStatusCodes: [200, 'ok'],
        folowRedirects: false,
        keyword: { value: 'Welcome', expect: 'maybe' },
      },
      thresholds: { timeoutMs: 50, failuresBeforeDown: 0 },
      labels: { 'a=b': 'c' },
      colour: 'blue',
    });
    expect(issuesOf(result)).toEqual([
      { path: 'slug', message: expect.stringContaining('lowercase letters, digits and dashes') },
      { path: 'name', message: 'must not be empty' },
      { path: 'enabled', message: 'expected true or false, got a string' },
      { path: 'intervalSeconds', message: 'must be at least 10' },
      { path: 'thresholds.timeoutMs', message: 'must be at least 100' },
      { path: 'thresholds.failuresBeforeDown', message: 'must be at least 1' },
      { path: 'labels.a=b', message: expect.stringContaining('without "="') },
      { path: 'colour', message: 'unknown field' },
      { path: 'target', message: expect.stringContaining('absolute URL') },
      { path: 'config.method', message: expect.stringContaining('must be one of "GET"') },
      { path: 'config.expectedStatusCodes.1', message: expect.stringContaining('range such as "200-299"') },
      { path: 'config.keyword.expect', message: 'must be one of "present", "absent"' },
      { path: 'config.folowRedirects', message: 'unknown field; did you mean "followRedirects"?' },
    ]);
  });

  test('reports a missing name and type as required', () => {
    expect(issuesOf(validateCheck({}))).toEqual([
      { path: 'name', message: 'required' },
      { path: 'type', message: 'required' },
    ]);
  });

  test('rejects what is not an object', () => {
    for (const input of [null, [], 'http', 42]) {
      expect(issuesOf(validateCheck(input))).toEqual([{ path: '', message: 'expected a check object' }]);
    }
  });

  test('names the known types when the type is unknown, and still checks the common fields', () => {
    const issues = issuesOf(validateCheck({ name: 'Old', type: 'gopher', intervalSeconds: 1 }));
    expect(issues.map((issue) => issue.path)).toEqual(['intervalSeconds', 'type']);
    expect(issues[1].message).toMatch(/^unknown check type "gopher"; known types: http, tcp, .*browser$/);
  });

  test('bounds the interval between 10 seconds and a day', () => {
    expect(validateCheck({ ...minimal, intervalSeconds: 10 }).ok).toBe(true);
    expect(validateCheck({ ...minimal, intervalSeconds: 86_400 }).ok).toBe(true);
    expect(pathsOf({ ...minimal, intervalSeconds: 86_401 })).toEqual(['intervalSeconds']);
    expect(pathsOf({ ...minimal, intervalSeconds: 30.5 })).toEqual(['intervalSeconds']);
  });

  // TEXT_BOUNDS counts code points, as the schemas do; the importers cut free text to the same count.
  test('bounds the name and the description in code points, not UTF-16 units', () => {
    expect(validateCheck({ ...minimal, name: '😀'.repeat(200), description: '😀'.repeat(2000) }).ok).toBe(true);
    expect(pathsOf({ ...minimal, name: '😀'.repeat(201), description: '😀'.repeat(2001) })).toEqual(['name', 'description']);
    expect(pathsOf({ ...minimal, name: 'n'.repeat(201), description: 'd'.repeat(2001) })).toEqual(['name', 'description']);
  });

  test('keeps the timeout within the interval and the degraded threshold below the timeout', () => {
    expect(issuesOf(validateCheck({ ...minimal, intervalSeconds: 10, thresholds: { timeoutMs: 15_000 } }))).toEqual([
      { path: 'thresholds.timeoutMs', message: 'must not exceed the interval (10000 ms)' },
    ]);
    expect(issuesOf(validateCheck({ ...minimal, thresholds: { timeoutMs: 5000, degradedResponseMs: 5000 } }))).toEqual([
      { path: 'thresholds.degradedResponseMs', message: 'must be less than timeoutMs (5000)' },
    ]);
  });

  test('flags unknown fields that look like secrets, and literal credentials in credential fields', () => {
    const issues = issuesOf(validateCheck({ ...minimal, config: { basicAuthUser: 'ops', basicAuthPassword: 'x', apiToken: 'y' } }));
    expect(issues).toEqual([
      { path: 'config.basicAuthPassword', message: expect.stringContaining('must be a secret reference such as {{secrets.DB_PASSWORD}}') },
      { path: 'config.apiToken', message: 'unknown field: secrets are never stored in a check' },
    ]);
  });

  test('accepts secret references where credentials go', () => {
    const check = validateCheck({
      ...minimal,
      config: {
        basicAuthUser: 'ops',
        basicAuthPassword: '{{secrets.OPS_PASSWORD}}',
        headers: { Authorization: 'Bearer {{secrets.API_TOKEN}}', 'X-Api-Key': '{{ secrets.API_KEY }}' },
      },
    });
    expect(check.ok).toBe(true);
    expect(issuesOf(validateCheck({ ...minimal, config: { basicAuthPassword: '{{secrets.lower}}' } }))).toEqual([
      { path: 'config.basicAuthPassword', message: expect.stringContaining('must be a secret reference') },
    ]);
  });

  test('suggests the camelCase spelling of a snake_case field', () => {
    expect(issuesOf(validateCheck({ ...minimal, interval_seconds: 30 }))).toEqual([
      { path: 'interval_seconds', message: 'unknown field; did you mean "intervalSeconds"?' },
    ]);
    expect(issuesOf(validateCheck({ ...minimal, config: { keyword: { value: 'x', case_sensitive: false } } }))).toEqual([
      { path: 'config.keyword.case_sensitive', message: 'unknown field; did you mean "caseSensitive"?' },
    ]);
  });

  test('refuses credential headers and credentials in URLs', () => {
    expect(issuesOf(validateCheck({ ...minimal, config: { headers: { authorization: 'Basic eDp5' } } }))).toEqual([
      { path: 'config.headers.authorization', message: expect.stringContaining('credentials') },
    ]);
    expect(issuesOf(validateCheck({ ...minimal, target: 'https://user:pw@example.com/' }))).toEqual([
      { path: 'target', message: expect.stringContaining('credentials do not belong in the URL') },
    ]);
  });
});

describe('validateCheck: labels', () => {
  test('accepts up to 64 labels and rejects more', () => {
    const labels = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v']));
    expect(validateCheck({ ...minimal, labels: labels(64) }).ok).toBe(true);
    expect(issuesOf(validateCheck({ ...minimal, labels: labels(65) }))).toEqual([{ path: 'labels', message: 'at most 64 labels' }]);
  });

  test.each([
    ['', 'v'],
    [' padded', 'v'],
    ['k'.repeat(65), 'v'],
    ['a,b', 'v'],
    ['key', 'v'.repeat(257)],
    ['key', 'line\nbreak'],
  ])('rejects the label %j = %j', (key, value) => {
    expect(pathsOf({ ...minimal, labels: { [key]: value } })).toEqual([`labels.${key}`]);
  });

  test('rejects the reserved key __proto__ instead of dropping it', () => {
    const input = JSON.parse('{"name": "x", "type": "tcp", "target": "db:5432", "labels": {"__proto__": "v"}}');
    expect(issuesOf(validateCheck(input))).toEqual([{ path: 'labels.__proto__', message: 'reserved name' }]);
  });

  test('rejects a label value that is not a string', () => {
    expect(issuesOf(validateCheck({ ...minimal, labels: { team: 7 } }))).toEqual([{ path: 'labels.team', message: 'expected a string, got a number' }]);
  });
});
