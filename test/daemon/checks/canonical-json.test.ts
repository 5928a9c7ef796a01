import { describe, expect, it } from 'vitest';
import { canonicalJson, generalCanonicalJson } from '../../../daemon/checks/canonical-json.js';

// Import baselines recorded with one version are compared with the text of the next: the direct
// writer of plain data must give exactly what the general path (JSON.stringify with each object's
// keys sorted) gives, for every value.
const values: Record<string, unknown> = {
  'a check': {
    slug: 'api',
    name: 'API "v2"',
    type: 'http',
    enabled: true,
    intervalSeconds: 60,
    target: 'https://api.example.com/',
    config: { method: 'GET', headers: { 'X-B': '2', 'x-a': '1' }, expectedStatus: ['200-299', 301] },
    thresholds: { timeoutMs: 5000, failuresBeforeDown: 1 },
    labels: {},
  },
  'array-index keys before the rest, in numeric order': {
    b: 1,
    10: 'ten',
    a: 2,
    9: 'nine',
    '01': 'padded',
    '-1': 'negative',
    4294967295: 'too large',
    4294967294: 'largest',
  },
  'members JSON leaves out, and array items it writes as null': { a: undefined, f: () => 1, list: [undefined, () => 1, Symbol('s'), Number.NaN, -0, Infinity] },
  holes: Object.assign(new Array(3), { 0: 1, 2: 3 }),
  'text needing escapes': { 'é\u0000"\\': 'line\nbreak\u2028\ud800', emoji: '😀' },
  'nested lists of objects': [[{ z: 1, y: [{ b: null, a: false }] }], []],
  'a null-prototype object': Object.assign(Object.create(null), { b: 1, a: 2 }),
  'a date, inside and alone': { at: new Date(0), nested: [new Date(86_400_000)] },
  toJSON: { toJSON: () => ({ b: 1, a: 2 }) },
  'a boxed string': { s: new String('ab') },
  'a map and a set': { m: new Map([[1, 2]]), s: new Set([1]) },
  'a class instance': {
    point: new (class Point {
      y = 2;
      x = 1;
    })(),
  },
  primitives: ['text', 1.5, true, null],
};

describe('canonical JSON', () => {
  it.each(Object.keys(values))('is what the general path writes: %s', (name) => {
    expect(canonicalJson(values[name])).toBe(generalCanonicalJson(values[name]));
  });

  it('sorts keys so that two equal documents compare equal, and writes undefined alone as JSON.stringify does', () => {
    expect(canonicalJson({ b: { d: 1, c: 2 }, a: [3] })).toBe('{"a":[3],"b":{"c":2,"d":1}}');
    expect(canonicalJson({ 10: 'x', b: 1, 9: 'y', a: 2 })).toBe('{"9":"y","10":"x","a":2,"b":1}');
    expect(canonicalJson(undefined)).toBe(JSON.stringify(undefined));
    expect(() => canonicalJson({ big: 1n })).toThrow(TypeError);
  });
});
