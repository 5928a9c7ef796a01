import { describe, expect, it } from 'vitest';
import { canonicalJson, generalCanonicalJson } from '../../../daemon/checks/canonical-json.js';

// Import baselines recorded with one version are compared with the text of the next: the direct
// writer of plain data must give exactly what the general path (JSON.stringify with each object's
// keys sorted) gives, for every value.
const makeValues = (): Record<string, unknown> => ({
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
});
const values = makeValues();

describe('canonical JSON', () => {
  it.each(Object.keys(values))('is what the general path writes: %s', (name) => {
    expect(canonicalJson(values[name])).toBe(generalCanonicalJson(values[name]));
  });

  it.each(Object.keys(values))('is what the general path writes for the same value deeply frozen, every time: %s', (name) => {
    const frozen = deepFreeze(makeValues()[name]);
    const expected = generalCanonicalJson(frozen);
    expect(canonicalJson(frozen)).toBe(expected);
    expect(canonicalJson({ again: frozen })).toBe(generalCanonicalJson({ again: frozen }));
    expect(canonicalJson(frozen)).toBe(expected);
  });

  it('remembers a frozen part only when everything in it is frozen: a part that can change is written again', () => {
    const headers: Record<string, string> = { b: '2' };
    const config = Object.freeze({ method: 'GET', headers });
    const check = { slug: 'api', config };
    expect(canonicalJson(check)).toBe('{"config":{"headers":{"b":"2"},"method":"GET"},"slug":"api"}');
    headers.a = '1';
    expect(canonicalJson(check)).toBe('{"config":{"headers":{"a":"1","b":"2"},"method":"GET"},"slug":"api"}');
    const list = Object.freeze([{ n: 1 }]);
    expect(canonicalJson(list)).toBe('[{"n":1}]');
    (list[0] as { n: number }).n = 2;
    expect(canonicalJson(list)).toBe('[{"n":2}]');
  });

  it('sorts keys so that two equal documents compare equal, and writes undefined alone as JSON.stringify does', () => {
    expect(canonicalJson({ b: { d: 1, c: 2 }, a: [3] })).toBe('{"a":[3],"b":{"c":2,"d":1}}');
    expect(canonicalJson({ 10: 'x', b: 1, 9: 'y', a: 2 })).toBe('{"9":"y","10":"x","a":2,"b":1}');
    expect(canonicalJson(undefined)).toBe(JSON.stringify(undefined));
    expect(() => canonicalJson({ big: 1n })).toThrow(TypeError);
  });
});

/** `value` and everything in it frozen. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
