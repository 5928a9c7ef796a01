import { describe, expect, it } from 'vitest';
import { validateCheck, ValidationMemo } from '../../checks/index.js';

const http = { name: 'Shop', type: 'http', target: 'https://shop.example.com/' };

describe('validating many checks with a memo', () => {
  it('gives every check the answer it gets alone, valid or not, whatever the type', () => {
    const inputs = [
      { ...http, config: { method: 'HEAD' }, thresholds: { timeoutMs: 5000 }, labels: { team: 'web' } },
      { ...http, name: 'Shop 2', config: { method: 'HEAD' }, thresholds: { timeoutMs: 5000 }, labels: { team: 'web' } },
      { ...http, name: 'Shop 3', config: { method: 'HEAD' }, thresholds: { timeoutMs: 5000 }, intervalSeconds: 4 },
      // The same config under another type means something else.
      { name: 'Port', type: 'tcp', target: '127.0.0.1:5432', config: {} },
      { ...http, name: 'Shop 4', config: {} },
      { ...http, name: 'Shop 5', config: { method: 'FETCH' }, thresholds: { timeoutMs: -1 }, labels: { 'Bad Key': 'x' } },
      { ...http, name: 'Shop 6', config: { method: 'FETCH' }, thresholds: { timeoutMs: -1 }, labels: { 'Bad Key': 'x' } },
      { ...http, name: 'Shop 7', config: { headers: { Authorization: '{{secret:token}}' } } },
      { ...http, name: 'Shop 8', config: { headers: { Authorization: '{{secret:token}}' } } },
      // Equal as JSON text, different as data: never one answer for both.
      { ...http, name: 'Shop 9', thresholds: { timeoutMs: Number.NaN } },
      { ...http, name: 'Shop 10', thresholds: { timeoutMs: null } },
      { ...http, name: 'Shop 11', config: { headers: { Accept: undefined } } },
      { ...http, name: 'Shop 12', config: { headers: {} } },
    ];
    const memo = new ValidationMemo();
    for (const input of [...inputs, ...inputs]) expect(validateCheck(input, memo)).toEqual(validateCheck(input));
  });

  it('keeps an answer only for plain JSON data, so equal text always means equal data', () => {
    const pairs: Array<[unknown, unknown]> = [
      [[undefined], [null]],
      // A hole reads back as null too.
      [Object.assign(new Array(3), { 0: 1, 2: 3 }), [1, null, 3]],
      [{ a: undefined }, {}],
      [Number.NaN, null],
      [-0, 0],
      [new Date(0), '1970-01-01T00:00:00.000Z'],
    ];
    for (const [odd, plain] of pairs) {
      const memo = new ValidationMemo();
      expect(memo.answer('part', odd, () => 'odd')).toBe('odd');
      expect(memo.answer('part', plain, () => 'plain')).toBe('plain');
      expect(memo.answer('part', plain, () => 'again')).toBe('plain');
    }
  });

  it('shares one frozen config between the checks that have it', () => {
    const memo = new ValidationMemo();
    const first = validateCheck({ ...http, config: { method: 'HEAD' } }, memo);
    const second = validateCheck({ ...http, name: 'Other', config: { method: 'HEAD' } }, memo);
    if (!first.ok || !second.ok) throw new Error('expected valid checks');
    expect(second.check.config).toBe(first.check.config);
    expect(Object.isFrozen(first.check.config)).toBe(true);
    expect(second.check.name).toBe('Other');
  });
});
