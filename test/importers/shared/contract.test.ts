import { describe, expect, test } from 'vitest';
import {
  ConversionBuilder,
  IMPORT_SOURCES,
  ImportInputError,
  MANAGED_LABEL_KEY,
  SlugAllocator,
  canonicalSource,
  importDescription,
  importHeaders,
  importLabels,
  inputText,
  flagValue,
  integerValue,
  numberValue,
  parseJsonText,
  statusCodeList,
  statusCodeMatcher,
  textValue,
} from '../../../importers/converter.js';

describe('sources', () => {
  test.each([
    ['configfile-monitor', 'configfile-monitor'],
    ['gatus', 'configfile-monitor'],
    ['betterstack', 'hosted-monitor-api'],
    ['uptime-kuma', 'selfhosted-monitor-db'],
    [' UptimeRobot ', 'uptime-api-monitor'],
    ['uptime-api-monitor', 'uptime-api-monitor'],
    ['Blackbox-Exporter', 'probe-exporter-config'],
    ['pingdom', 'hosted-check-api'],
  ])('%j is %j', (name, source) => {
    expect(canonicalSource(name)).toBe(source);
  });

  test.each(['', 'kuma', 'toString', '__proto__', 'constructor'])('%j is no source', (name) => {
    expect(canonicalSource(name)).toBeUndefined();
  });

  test('lists the sources', () => {
    expect(IMPORT_SOURCES).toEqual([
      'configfile-monitor',
      'cron-monitor-api',
      'hosted-check-api',
      'hosted-monitor-api',
      'probe-exporter-config',
      'selfhosted-monitor-db',
      'uptime-api-monitor',
    ]);
  });
});

describe('SlugAllocator', () => {
  test('suffixes collisions in call order', () => {
    const slugs = new SlugAllocator();
    expect(['API', 'api', 'Api!', 'api-2', 'Other'].map((name) => slugs.allocate(name))).toEqual(['api', 'api-2', 'api-3', 'api-2-2', 'other']);
  });

  test('keeps suffixed slugs within 63 characters', () => {
    const slugs = new SlugAllocator();
    const name = 'x'.repeat(80);
    expect(slugs.allocate(name)).toHaveLength(63);
    const second = slugs.allocate(name);
    expect(second).toBe(`${'x'.repeat(61)}-2`);
    expect(second).toHaveLength(63);
  });

  test('falls back to "check" for names without letters or digits', () => {
    const slugs = new SlugAllocator();
    expect([slugs.allocate('???'), slugs.allocate('日本')]).toEqual(['check', 'check-2']);
  });
});

describe('ConversionBuilder', () => {
  test('validates, labels and slugs emitted checks; rejected ones are skipped with INVALID_ITEM', () => {
    const builder = new ConversionBuilder('uptime-api-monitor');
    const first = builder.item('Shop');
    first.warn('UNSUPPORTED_SETTING', 'something', 'field');
    builder.emit(first, { name: 'Shop', type: 'http', target: 'https://shop.example.com', labels: { team: 'web' } });
    const bad = builder.item('Broken');
    builder.emit(bad, { name: 'Broken', type: 'http', target: 'not a url' });
    const second = builder.item('shop');
    builder.emit(second, { name: 'shop', type: 'tcp', target: 'shop.example.com:443' });
    const result = builder.result();
    expect(result.checks.map((check) => [check.slug, check.labels])).toEqual([
      ['shop', { team: 'web', [MANAGED_LABEL_KEY]: 'uptime-api-monitor' }],
      ['shop-2', { [MANAGED_LABEL_KEY]: 'uptime-api-monitor' }],
    ]);
    expect(result.warnings).toEqual([
      { item: 'Shop', slug: 'shop', code: 'UNSUPPORTED_SETTING', field: 'field', message: 'something' },
      {
        item: 'Broken',
        code: 'INVALID_ITEM',
        message: expect.stringMatching(/^the converted check is not valid \(target: .+\); the item was skipped$/),
      },
    ]);
    expect(result.skipped).toEqual([{ item: 'Broken', reason: 'INVALID_ITEM', message: expect.stringContaining('not valid') }]);
  });

  test('a source label cannot override the managed label', () => {
    const builder = new ConversionBuilder('configfile-monitor');
    builder.emit(builder.item('x'), {
      name: 'x',
      type: 'icmp',
      target: 'example.com',
      labels: { [MANAGED_LABEL_KEY]: 'someone-else' },
    });
    expect(builder.result().checks[0].labels).toEqual({ [MANAGED_LABEL_KEY]: 'configfile-monitor' });
  });

  test('cuts long names and refuses empty ones', () => {
    const builder = new ConversionBuilder('configfile-monitor');
    builder.emit(builder.item('long'), { name: 'n'.repeat(250), type: 'icmp', target: 'example.com' });
    builder.emit(builder.item('empty'), { name: '   ', type: 'icmp', target: 'example.com' });
    const result = builder.result();
    expect(result.checks[0].name).toHaveLength(200);
    expect(result.warnings.map((w) => [w.item, w.code])).toEqual([
      ['long', 'VALUE_ADJUSTED'],
      ['empty', 'INVALID_ITEM'],
    ]);
  });

  // The catalog counts a name's and a description's length in code points (checks/check-fields.ts):
  // a name of 200 emoji is whole, one of 201 is cut to 200, never splitting a character.
  test('names are cut to 200 code points and control characters in them become spaces, so that the item is imported', () => {
    const builder = new ConversionBuilder('configfile-monitor');
    builder.emit(builder.item('emoji'), { name: '😀'.repeat(200), type: 'icmp', target: 'example.com' });
    builder.emit(builder.item('more emoji'), { name: '😀'.repeat(201), type: 'icmp', target: 'example.com' });
    builder.emit(builder.item('bell'), { name: 'Core\u0007API\n', type: 'icmp', target: 'example.com' });
    builder.emit(builder.item('separators'), { name: 'a\u2028b\u0085c', type: 'icmp', target: 'example.com' });
    const result = builder.result();
    expect(result.skipped).toEqual([]);
    expect(result.checks.map((check) => Array.from(check.name).length)).toEqual([200, 200, 8, 5]);
    expect(result.checks.slice(2).map((check) => check.name)).toEqual(['Core API', 'a b c']);
    expect(result.warnings.map((w) => [w.item, w.message])).toEqual([
      ['more emoji', 'the name was cut to 200 characters'],
      ['bell', 'control characters in the name were written as spaces'],
      ['separators', 'control characters in the name were written as spaces'],
    ]);
  });

  test('descriptions are cut to 2,000 code points and control characters but tabs and line breaks become spaces', () => {
    const scope = new ConversionBuilder('configfile-monitor').item('x');
    expect(importDescription(undefined, scope, 'desc')).toBeUndefined();
    expect(importDescription('😀'.repeat(2000), scope, 'desc')).toBe('😀'.repeat(2000));
    expect(importDescription('line\tone\r\nline two', scope, 'desc')).toBe('line\tone\r\nline two');
    expect(scope.warnings).toEqual([]);
    expect(importDescription(`${'a'.repeat(1999)}😀😀`, scope, 'desc')).toBe(`${'a'.repeat(1999)}😀`);
    expect(importDescription('bell\u0007 and\u0000nul\u009f', scope, 'desc')).toBe('bell  and nul ');
    expect(scope.warnings.map((w) => [w.field, w.message])).toEqual([
      ['desc', 'the description was cut to 2000 characters'],
      ['desc', 'control characters in the description were written as spaces'],
    ]);
    // What comes out is what the catalog takes.
    const builder = new ConversionBuilder('configfile-monitor');
    const item = builder.item('y');
    builder.emit(item, { name: 'y', type: 'icmp', target: 'example.com', description: importDescription(`\u0001${'😀'.repeat(2500)}`, item, 'desc') });
    expect(builder.result().skipped).toEqual([]);
  });

  test('intervals and timeouts are moved into the catalog bounds with a warning', () => {
    const builder = new ConversionBuilder('configfile-monitor');
    const scope = builder.item('x');
    expect(scope.intervalSeconds(5, 'interval')).toBe(10);
    expect(scope.intervalSeconds(100_000, 'interval')).toBe(86_400);
    expect(scope.intervalSeconds(30, 'interval')).toBe(30);
    expect(scope.intervalSeconds(12.4, 'interval')).toBe(12);
    expect(scope.intervalSeconds(undefined, 'interval')).toBeUndefined();
    expect(scope.timeoutMs(30_000, 20, 'timeout')).toBe(20_000);
    expect(scope.timeoutMs(5, undefined, 'timeout')).toBe(100);
    expect(scope.warnings.map((w) => w.code)).toEqual(Array(5).fill('VALUE_ADJUSTED'));
  });
});

describe('labels and headers', () => {
  test('label keys and values are cleaned, the managed key is reserved', () => {
    const scope = new ConversionBuilder('configfile-monitor').item('x');
    const labels = importLabels(
      [
        ['team', 'web'],
        ['a=b,c', 'v'],
        ['  ', 'blank'],
        [MANAGED_LABEL_KEY, 'x'],
        ['__proto__', 'x'],
        ['k'.repeat(70), 'line\nbreak'],
      ],
      scope,
      'tags',
    );
    expect(labels).toEqual({ team: 'web', 'a-b-c': 'v', ['k'.repeat(64)]: 'line break' });
    expect(scope.warnings.map((w) => w.code)).toEqual(Array(5).fill('VALUE_ADJUSTED'));
  });

  test('at most 63 source labels are kept', () => {
    const scope = new ConversionBuilder('configfile-monitor').item('x');
    const labels = importLabels(
      Array.from({ length: 70 }, (_, i) => [`k${i}`, 'v'] as const),
      scope,
      'tags',
    );
    expect(Object.keys(labels)).toHaveLength(63);
    expect(scope.warnings).toHaveLength(1);
  });

  test('credential headers refer to secrets instead of keeping their value, invalid ones are unsupported', () => {
    const builder = new ConversionBuilder('configfile-monitor');
    const scope = builder.item('x');
    const headers = importHeaders(
      [
        ['Accept', 'text/html'],
        ['authorization', 'Basic abc'],
        ['X-API-Key', 'k'],
        ['X-Auth-Token', '${AUTH_TOKEN}'],
        ['Bad Name', 'x'],
        ['X-Count', 3],
        ['X-Object', { a: 1 }],
        ['__proto__', 'x'],
      ],
      scope,
      'headers',
    );
    const check = builder.emit(scope, { name: 'Shop front', type: 'http', target: 'https://shop.example.com/', config: { headers } });
    expect(check?.config).toMatchObject({
      headers: {
        Accept: 'text/html',
        authorization: 'Basic {{secrets.SHOP_FRONT_AUTHORIZATION}}',
        'X-API-Key': '{{secrets.SHOP_FRONT_X_API_KEY}}',
        'X-Auth-Token': '{{secrets.AUTH_TOKEN}}',
        'X-Count': '3',
      },
    });
    expect(JSON.stringify(check)).not.toMatch(/abc|"k"/);
    expect(scope.warnings.find((w) => w.field === 'headers.authorization')?.message).toContain(
      'set secret SHOP_FRONT_AUTHORIZATION (svc secrets set SHOP_FRONT_AUTHORIZATION)',
    );
    expect(scope.warnings.map((w) => [w.code, w.field])).toEqual([
      ['SECRET_DROPPED', 'headers.authorization'],
      ['SECRET_DROPPED', 'headers.X-API-Key'],
      ['SECRET_DROPPED', 'headers.X-Auth-Token'],
      ['UNSUPPORTED_SETTING', 'headers.Bad Name'],
      ['UNSUPPORTED_SETTING', 'headers.X-Object'],
      ['UNSUPPORTED_SETTING', 'headers.__proto__'],
    ]);
  });
});

describe('input helpers', () => {
  test('bytes are decoded as UTF-8 without a byte-order mark', () => {
    expect(inputText(new Uint8Array([0xef, 0xbb, 0xbf, 0x61]), 'x')).toBe('a');
    expect(() => inputText(new Uint8Array([0xff, 0xfe, 0x00]), 'a thing')).toThrow(ImportInputError);
  });

  test('malformed and empty JSON are input errors naming what was expected', () => {
    expect(() => parseJsonText('{"a": [1, 2', 'the JSON of X')).toThrow(/^expected the JSON of X, but the input is not valid JSON/);
    expect(() => parseJsonText('  ', 'the JSON of X')).toThrow(/is empty/);
    expect(parseJsonText('[1]', 'x')).toEqual([1]);
  });

  test('loose values', () => {
    expect([numberValue('42'), numberValue(' 7 '), numberValue(''), numberValue(null), numberValue('4a')]).toEqual([42, 7, undefined, undefined, undefined]);
    expect([integerValue('3'), integerValue(2.5)]).toEqual([3, undefined]);
    expect([flagValue('yes'), flagValue('Off'), flagValue(1), flagValue('maybe')]).toEqual([true, false, true, undefined]);
    expect([textValue(5), textValue(null), textValue({})]).toEqual(['5', undefined, undefined]);
  });
});

describe('status codes', () => {
  test('sets of codes become codes and ranges', () => {
    expect(statusCodeList((code) => code >= 200 && code < 300)).toEqual(['200-299']);
    expect(statusCodeList((code) => code === 200 || code === 204)).toEqual([200, 204]);
    expect(statusCodeList((code) => code !== 404 && code < 500)).toEqual(['100-403', '405-499']);
    expect(statusCodeList(() => false)).toEqual([]);
    expect(statusCodeList(() => true)).toEqual(['100-599']);
  });

  test('lists of codes and ranges become a predicate', () => {
    const accepts = statusCodeMatcher(['200-299', 301, '404', 'junk']);
    expect([200, 299, 300, 301, 404, 500].map(accepts)).toEqual([true, true, false, true, true, false]);
  });
});
