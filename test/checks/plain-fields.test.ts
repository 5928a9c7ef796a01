import { describe, expect, it } from 'vitest';
import { commonFieldSchemas, TEXT_BOUNDS } from '../../checks/check-fields.js';
import { NOT_PLAIN, plainFieldReadings } from '../../checks/plain-fields.js';

// Values at and past every bound of checks/check-fields.ts, and the kinds of text that trip
// its patterns (control characters, line separators, surrounding spaces, astral characters).
const text = (length: number, unit = 'a') => unit.repeat(length);
const texts = [
  '',
  ' ',
  'a',
  '  Shop  ',
  'Shop\tfront',
  'Shop\nfront',
  'Shop\u0000',
  'Shop\u007f',
  'Shop\u0085',
  'Shop\u2028',
  'Shop\u2029',
  '\u00a0Shop\u00a0',
  '\ufeffShop',
  'Café 😀',
  'UPPER',
  'slug-1',
  '-slug',
  'slug-',
  'a_b',
  text(63),
  text(64),
  text(TEXT_BOUNDS.name),
  text(TEXT_BOUNDS.name + 1),
  ` ${text(TEXT_BOUNDS.name)} `,
  text(TEXT_BOUNDS.name / 2, '😀'),
  text(TEXT_BOUNDS.name / 2 + 1, '😀'),
  text(TEXT_BOUNDS.description),
  text(TEXT_BOUNDS.description + 1),
  text(TEXT_BOUNDS.target),
  text(TEXT_BOUNDS.target + 1),
];
const others = [undefined, null, true, false, 0, -0, 9, 10, 10.5, 60, 86_400, 86_401, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, '60', [], {}, { a: 1 }];

describe('plain readings of the common fields', () => {
  for (const [field, read] of Object.entries(plainFieldReadings)) {
    it(`${field}: a value read plainly is one its schema accepts, and gives the same value`, () => {
      const schema = commonFieldSchemas[field as keyof typeof plainFieldReadings];
      let plain = 0;
      for (const value of [...texts, ...others]) {
        const reading = read(value);
        if (reading === NOT_PLAIN) continue;
        plain++;
        const parsed = schema.safeParse(value);
        expect(parsed.success, `${field}: ${JSON.stringify(value)}`).toBe(true);
        expect(Object.is(reading, parsed.data) || JSON.stringify(reading) === JSON.stringify(parsed.data), `${field}: ${JSON.stringify(value)}`).toBe(true);
      }
      expect(plain).toBeGreaterThan(0);
    });
  }

  it('labels: a map read plainly is one the schema accepts, with the same labels in the same order', () => {
    const maps: unknown[] = [
      { team: 'payments', 'Production DB': '', 'svc-managed': 'configfile-monitor' },
      { '10': 'ten', b: 'x', '2': 'two' },
      { 'Café 😀': 'Straße', env: text(256) },
      { env: text(257) },
      { ' env': 'x' },
      { 'env ': 'x' },
      { 'a=b': 'x' },
      { 'a,b': 'x' },
      { [text(64)]: 'x' },
      { [text(65)]: 'x' },
      { env: 'line\nbreak' },
      { env: 'nul\u0000' },
      { env: 1 },
      { env: null },
      { env: undefined },
      JSON.parse('{"__proto__": "x"}'),
      Object.create(null),
      Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`k${i}`, 'v'])),
      Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, 'v'])),
      { [Symbol('s')]: 'x' },
      new Map([['a', 'b']]),
    ];
    let plain = 0;
    for (const value of maps) {
      const reading = plainFieldReadings.labels(value);
      if (reading === NOT_PLAIN) continue;
      plain++;
      const parsed = commonFieldSchemas.labels.safeParse(value);
      expect(parsed.success, String(Object.keys(value as object))).toBe(true);
      expect(Object.entries(reading)).toEqual(Object.entries(parsed.data as object));
    }
    expect(plain).toBe(5);
  });

  it('reads the values an import gives most checks without the schema', () => {
    expect(plainFieldReadings.name('  Shop  ')).toBe('Shop');
    expect(plainFieldReadings.slug(undefined)).toBeUndefined();
    expect(plainFieldReadings.slug('shop-1')).toBe('shop-1');
    expect(plainFieldReadings.type('http')).toBe('http');
    expect(plainFieldReadings.enabled(undefined)).toBe(true);
    expect(plainFieldReadings.enabled(false)).toBe(false);
    expect(plainFieldReadings.intervalSeconds(undefined)).toBe(60);
    expect(plainFieldReadings.intervalSeconds(300)).toBe(300);
    expect(plainFieldReadings.target('https://shop.example.com/')).toBe('https://shop.example.com/');
    expect(plainFieldReadings.description('Line one\nline two')).toBe('Line one\nline two');
    expect(plainFieldReadings.labels(undefined)).toEqual({});
    expect(plainFieldReadings.labels({ team: 'payments' })).toEqual({ team: 'payments' });
  });
});
