import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateCheck } from '../../checks/validate-check.js';
import { validateCheckPatch } from '../../checks/validate-patch.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../checks/json-depth.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';
import { call, connectMcp, mcpUrl, mintToken } from './mcp/mcp-client.js';

/** `{"a": {"a": ... 1}}`, `levels` objects deep, built as text (10,000 levels is about 60 KB). */
const nestedText = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
const nested = (levels: number): unknown => JSON.parse(nestedText(levels));
const check = { name: 'Deep', type: 'http', target: 'https://example.com/' };
/** A check whose labels nest `levels` deep, as JSON text (spliced, so no serialiser recurses). */
const deepCheckText = (levels: number) => JSON.stringify({ ...check, labels: '@' }).replace('"@"', nestedText(levels));

describe('the nesting walkers', () => {
  it('measure a document a million levels deep without recursion', () => {
    const deep = JSON.parse(`${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`);
    expect(nestsDeeperThan(deep, MAX_JSON_DEPTH)).toBe(true);
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(nestsDeeperThan({ a: [1, { b: 'x' }], c: null }, 3)).toBe(false);
    expect(nestsDeeperThan({ a: [1, { b: [] }] }, 3)).toBe(true);
  });

  it('let check validation and merge patches refuse a 10,000-level document instead of overflowing the stack', () => {
    const deep = { ...check, labels: nested(10_000) };
    expect(validateCheck(deep)).toEqual({ ok: false, issues: [{ path: '', message: `is nested deeper than ${MAX_JSON_DEPTH} levels` }] });
    const existing = validateCheck(check);
    if (!existing.ok) throw new Error('sample check invalid');
    expect(validateCheckPatch(existing.check, { labels: nested(10_000) })).toMatchObject({ ok: false, issues: [{ path: '' }] });
    // A __proto__ key deep inside, within the limit, is still found.
    expect(validateCheck({ ...check, config: JSON.parse(`${'{"a":'.repeat(40)}{"__proto__":1}${'}'.repeat(40)}`) })).toMatchObject({ ok: false });
  });
});

describe.each(DATABASE_KINDS)('JSON nesting depth of request bodies [%s]', (kind) => {
  let daemon: TestDaemon;
  let admin: string;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
    admin = await daemon.adminToken();
    expect((await daemon.request('POST', '/orgs/default/checks', { token: admin, body: check })).status).toBe(201);
  });
  afterAll(() => daemon.stop());

  const tooDeep = (res: { status: number; body: any }) => {
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.message).toContain(`nested deeper than ${MAX_JSON_DEPTH} levels`);
  };

  it('answers 400 VALIDATION_FAILED, not 500, to a 10,000-level body on create, validate and PATCH, and stores nothing', async () => {
    const raw = deepCheckText(10_000);
    expect(raw.length).toBeGreaterThan(60_000);
    const headers = { 'content-type': 'application/json' };
    tooDeep(await daemon.request('POST', '/orgs/default/checks', { token: admin, raw, headers }));
    tooDeep(await daemon.request('POST', '/orgs/default/checks/validate', { token: admin, raw, headers }));
    tooDeep(await daemon.request('PATCH', '/orgs/default/checks/deep', { token: admin, raw: `{"labels":${nestedText(10_000)}}`, headers }));
    // Every JSON body, not only checks.
    tooDeep(await daemon.request('POST', '/orgs', { token: admin, raw: `{"slug":"deep","name":"Deep","x":${nestedText(100)}}`, headers }));
    const stored = await daemon.request('GET', '/orgs/default/checks/deep', { token: admin });
    expect(stored.body.labels).toEqual({});
    expect((await daemon.request('GET', '/orgs/default/checks', { token: admin })).body.items).toHaveLength(1);
    // Within the limit, a deep value is an ordinary validation problem.
    const shallower = await daemon.request('POST', '/orgs/default/checks/validate', { token: admin, raw: deepCheckText(MAX_JSON_DEPTH - 2), headers });
    expect(shallower.status).toBe(400);
    expect(shallower.body.error.details.issues.some((issue: { path: string }) => issue.path.startsWith('labels'))).toBe(true);
  });

  it('answers 400 VALIDATION_FAILED to an MCP call nested too deeply, and validate_check stays safe below the limit', async () => {
    const token = await mintToken(daemon, admin, ['mcp']);
    const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"validate_check","arguments":{"check":${deepCheckText(10_000)}}}}`;
    const res = await fetch(mcpUrl(daemon), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body,
    });
    const answer = await res.json();
    expect(res.status, JSON.stringify(answer).slice(0, 300)).toBe(400);
    expect(answer.error.code).toBe('VALIDATION_FAILED');

    const client = await connectMcp(daemon, token);
    try {
      // (The SDK's client cannot even serialise 10,000 levels; 100 is enough past the limit.)
      await expect(call(client, 'validate_check', { check: { ...check, labels: nested(100) } })).rejects.toSatisfy(
        (error) => error instanceof StreamableHTTPError && error.code === 400,
      );
      const within = await call(client, 'validate_check', { check: { ...check, labels: nested(MAX_JSON_DEPTH - 8) } });
      expect(within.structuredContent).toMatchObject({ valid: false });
      expect((await call(client, 'validate_check', { check })).structuredContent).toMatchObject({ valid: true });
    } finally {
      await client.close();
    }
  });
});
