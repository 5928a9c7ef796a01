import { describe, expect, it } from 'vitest';
import { sameDaemon } from '../../cli/config.js';
import { fieldChanges, mergePatch, planApply } from '../../cli/commands/checks-plan.js';

describe('sameDaemon', () => {
  it('treats the loopback names as one host and fills in default ports', () => {
    expect(sameDaemon('http://localhost:4000', 'http://127.0.0.1:4000/')).toBe(true);
    expect(sameDaemon('http://[::1]:4000', 'http://localhost:4000')).toBe(true);
    expect(sameDaemon('https://svc.example.com', 'https://svc.example.com:443')).toBe(true);
    expect(sameDaemon('http://localhost:4000', 'http://localhost:4001')).toBe(false);
    expect(sameDaemon('http://localhost:4000', 'https://localhost:4000')).toBe(false);
    expect(sameDaemon('http://svc.example.com', 'http://127.0.0.1')).toBe(false);
  });
});

describe('the apply plan', () => {
  const managed = { 'svc-managed': 'apply' };
  it('turns one definition into another with a merge patch that removes what is gone', () => {
    const from = { name: 'A', config: { method: 'GET', headers: { a: '1', b: '2' } }, description: 'x', labels: managed };
    const to = { name: 'A', config: { method: 'GET', headers: { a: '1' }, body: 'hi' }, labels: managed };
    expect(mergePatch(from, to)).toEqual({ description: null, config: { headers: { b: null }, body: 'hi' } });
    expect(fieldChanges(from, to)).toEqual([
      { path: 'config.body', to: 'hi' },
      { path: 'config.headers.b', from: '2' },
      { path: 'description', from: 'x' },
    ]);
  });

  it('prunes only managed checks, and only when asked', () => {
    const existing = [
      { slug: 'kept', labels: managed, createdAt: 't', updatedAt: 't' },
      { slug: 'gone', labels: managed },
      { slug: 'by-hand', labels: {} },
    ];
    const desired = [{ slug: 'kept', labels: managed }];
    expect(planApply(desired, existing, false)).toMatchObject({ unchanged: ['kept'], delete: [], kept: ['gone'] });
    expect(planApply(desired, existing, true)).toMatchObject({ unchanged: ['kept'], delete: ['gone'], kept: [] });
  });
});
