import { describe, expect, it } from 'vitest';
import { validateCheck, type CheckDefinition } from '../../../checks/index.js';
import { mergeReimport } from '../../../daemon/import/reimport-merge.js';

/** A normalised check from its input. */
function check(input: Record<string, unknown>): CheckDefinition {
  const validation = validateCheck({ name: 'Orders', type: 'http', target: 'https://orders.example.com', ...input });
  if (!validation.ok) throw new Error(JSON.stringify(validation.issues));
  return validation.check;
}

describe('the field-by-field merge of a re-run import', () => {
  it('walks objects key by key, label keys with dots included', () => {
    const base = check({ labels: { 'app.kubernetes.io/name': 'orders', team: 'a' } });
    const here = check({ labels: { 'app.kubernetes.io/name': 'orders', team: 'b' } });
    const source = check({ labels: { 'app.kubernetes.io/name': 'checkout', team: 'a' } });
    const merge = mergeReimport(base, here, source, false);
    expect(merge.definition.labels).toEqual({ 'app.kubernetes.io/name': 'checkout', team: 'b' });
    expect(merge.changes).toEqual([{ field: 'labels.app.kubernetes.io/name', from: 'orders', to: 'checkout' }]);
    expect(merge.conflicts).toEqual([]);
  });

  it('takes a new type with its target and config as one, keeping the other fields changed here', () => {
    const base = check({});
    const here = check({ intervalSeconds: 120 });
    const source = check({ type: 'tcp', target: 'orders.example.com:443', config: {} });
    const merge = mergeReimport(base, here, source, false);
    expect(merge.definition).toMatchObject({ type: 'tcp', target: 'orders.example.com:443', intervalSeconds: 120 });
    expect(merge.definition.config).toEqual(source.config);
    expect(merge.conflicts).toEqual([]);
    // A config changed here for the old type: type, target and config in conflict, kept here.
    const edited = check({ intervalSeconds: 120, config: { method: 'HEAD' } });
    const kept = mergeReimport(base, edited, source, false);
    expect(kept.definition).toEqual(edited);
    expect(kept.conflicts.map((c) => c.field)).toEqual(expect.arrayContaining(['type', 'target', 'config.method']));
    expect(mergeReimport(base, edited, source, true).definition).toMatchObject({ type: 'tcp', intervalSeconds: 120 });
  });

  it('without a baseline, every difference is a conflict, kept or taken', () => {
    const here = check({ intervalSeconds: 120, enabled: false });
    const source = check({ intervalSeconds: 300 });
    const kept = mergeReimport(undefined, here, source, false);
    expect(kept.definition).toEqual(here);
    expect(kept.conflicts).toEqual([
      { field: 'enabled', here: false, source: true, taken: 'here' },
      { field: 'intervalSeconds', here: 120, source: 300, taken: 'here' },
    ]);
    const taken = mergeReimport(undefined, here, source, true);
    expect(taken.definition).toMatchObject({ intervalSeconds: 300, enabled: true });
  });

  it("does not store a mix that is not a valid check: the source's changes become conflicts", () => {
    // The timeout may not exceed the interval: the source shortens the interval, a person here raised the timeout.
    const base = check({ intervalSeconds: 60 });
    const here = check({ intervalSeconds: 60, thresholds: { timeoutMs: 50_000 } });
    const source = check({ intervalSeconds: 30, thresholds: { timeoutMs: 10_000 } });
    const merge = mergeReimport(base, here, source, false);
    expect(merge.definition).toEqual(here);
    expect(merge.changes).toEqual([]);
    expect(merge.conflicts).toEqual([{ field: 'intervalSeconds', here: 60, source: 30, taken: 'here' }]);
  });
});
