import { describe, expect, test } from 'vitest';
import { mergePatch, sampleCheck, validateCheckPatch, type CheckDefinition } from '../../checks/index.js';

const existing = sampleCheck('http') as CheckDefinition<'http'>;

describe('mergePatch', () => {
  test('merges objects, replaces lists and values, and removes keys set to null', () => {
    expect(mergePatch({ a: 1, b: { c: 2, d: 3 }, e: [1, 2], f: 'x' }, { a: 5, b: { d: null, g: 4 }, e: [3], f: null })).toEqual({
      a: 5,
      b: { c: 2, g: 4 },
      e: [3],
    });
  });
});

describe('validateCheckPatch', () => {
  test('changes what the patch names and keeps the rest, slug included', () => {
    const result = validateCheckPatch(existing, {
      name: 'Public API health',
      config: { headers: { 'X-Probe': 'svc' } },
      labels: { team: null, tier: '1' },
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.check).toEqual({
      ...existing,
      name: 'Public API health',
      config: { ...existing.config, headers: { Accept: 'application/json', 'X-Probe': 'svc' } },
      labels: { tier: '1' },
    });
  });

  test('removing optional fields restores their defaults', () => {
    const result = validateCheckPatch(existing, { config: { certificateExpiryDays: null, maxRedirects: null } });
    expect(result.ok && result.check.config).not.toHaveProperty('certificateExpiryDays');
    expect(result.ok && result.check.type === 'http' && result.check.config.maxRedirects).toBe(10);
  });

  test('removing the slug derives it from the name again', () => {
    const result = validateCheckPatch({ ...existing, slug: 'old' }, { slug: null, name: 'Renamed check' });
    expect(result.ok && result.check.slug).toBe('renamed-check');
  });

  test('a new type starts from a blank config', () => {
    const result = validateCheckPatch(existing, { type: 'tcp', target: 'api.example.com:443' });
    expect(result.ok && result.check).toMatchObject({ type: 'tcp', config: { invert: false } });
    expect(result.ok && Object.keys(result.check.config)).toEqual(['invert']);
  });

  test('reports every problem of the merged check', () => {
    const result = validateCheckPatch(existing, { intervalSeconds: 1, config: { method: 'FETCH' }, extra: true });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues.map((issue) => issue.path)).toEqual(['intervalSeconds', 'extra', 'config.method']);
  });

  test('keeps a "__proto__" key from parsed JSON as a field, so it is reported', () => {
    const merged = mergePatch({ a: 1 }, JSON.parse('{"__proto__": {"polluted": true}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(Object.keys(merged)).toEqual(['a', '__proto__']);
    const result = validateCheckPatch(existing, JSON.parse('{"labels": {"__proto__": "x"}}'));
    expect(result.ok ? [] : result.issues.map((issue) => issue.path)).toEqual(['labels.__proto__']);
  });

  test('rejects changes that are not an object', () => {
    expect(validateCheckPatch(existing, [])).toEqual({
      ok: false,
      issues: [{ path: '', message: 'expected an object of changes' }],
    });
  });

  test('does not change the existing check', () => {
    const before = structuredClone(existing);
    validateCheckPatch(existing, { config: { headers: { Accept: null } }, labels: { team: null } });
    expect(existing).toEqual(before);
  });
});
