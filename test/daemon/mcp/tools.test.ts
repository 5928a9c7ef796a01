import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkTypeNames } from '../../../checks/index.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { ALL_TOOLS, call, checkCount, connectMcp, mintToken } from './mcp-client.js';

describe.each(DATABASE_KINDS)('MCP tools [%s]', (kind) => {
  let daemon: TestDaemon;
  let admin: string;
  let agent: Client;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
    admin = await daemon.adminToken();
    // An owner's token with the default scopes (api and mcp).
    agent = await connectMcp(daemon, await mintToken(daemon, admin, undefined));
  });
  afterAll(async () => {
    await agent?.close();
    await daemon.stop();
  });

  it('lists every tool with a description for agents, a JSON Schema input and an output schema', async () => {
    const { tools } = await agent.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(ALL_TOOLS);
    for (const tool of tools) {
      expect(tool.description!.length, tool.name).toBeGreaterThan(80);
      expect(tool.description, tool.name).toMatch(/Example: \{/);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
    }
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    // An access token names its organization itself: org is optional, and absent from the catalog tools.
    expect(byName.create_check.inputSchema.required).toEqual(['check']);
    expect(byName.create_check.inputSchema.properties).toHaveProperty('org');
    expect(byName.list_check_types.inputSchema.properties).not.toHaveProperty('org');
    const check = byName.validate_check.inputSchema.properties!.check as { properties: Record<string, { enum?: string[] }>; required: string[] };
    expect(check.required).toEqual(['name', 'type']);
    expect(check.properties.type.enum).toEqual([...checkTypeNames]);
    expect(byName.update_check.inputSchema.required).toEqual(['slug', 'changes']);
    expect(byName.delete_check.annotations).toMatchObject({ destructiveHint: true });
    expect(byName.list_checks.annotations).toMatchObject({ readOnlyHint: true });
  });

  it('lists the check types and fetches a valid sample of every type', async () => {
    const listed = await call(agent, 'list_check_types');
    expect(listed.isError).toBeFalsy();
    const types = (listed.structuredContent as { types: { type: string; schema?: unknown }[] }).types;
    expect(types.map((t) => t.type)).toEqual([...checkTypeNames]);
    expect(types[0]).not.toHaveProperty('schema');
    const withSchemas = await call(agent, 'list_check_types', { includeSchemas: true });
    expect((withSchemas.structuredContent as { types: { schema: { type: string } }[] }).types[0].schema.type).toBe('object');

    for (const type of checkTypeNames) {
      const sample = await call(agent, 'get_check_type_sample', { type });
      expect(sample.isError, `${type}: ${sample.text}`).toBeFalsy();
      const content = sample.structuredContent as { type: string; check: Record<string, unknown>; configSchema: { type: string } };
      expect(content.type).toBe(type);
      expect(content.check.type).toBe(type);
      expect(content.configSchema.type).toBe('object');
      // The same sample as the REST API, and valid as it stands.
      expect((await daemon.request('GET', `/check-types/${type}/sample`, { token: admin })).body).toEqual(content.check);
      const validated = await call(agent, 'validate_check', { check: content.check });
      expect(validated.structuredContent, type).toMatchObject({ valid: true, check: content.check });
    }
    const unknown = await call(agent, 'get_check_type_sample', { type: 'gopher' });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toContain('No check type "gopher"; known types: http');
  });

  it('validates a bad check with every problem and its path, and a good one, writing nothing', async () => {
    const before = await checkCount(daemon);
    const bad = await call(agent, 'validate_check', {
      check: { name: '', type: 'http', target: 'not a url', intervalSeconds: 5, config: { method: 'FETCH' }, colour: 'red' },
    });
    expect(bad.isError).toBeFalsy();
    const issues = (bad.structuredContent as { valid: boolean; issues: { path: string; message: string }[] }).issues;
    expect((bad.structuredContent as { valid: boolean }).valid).toBe(false);
    expect(issues.map((issue) => issue.path).sort()).toEqual(['colour', 'config.method', 'intervalSeconds', 'name', 'target']);
    expect(bad.text).toContain('- config.method: must be one of');

    const good = await call(agent, 'validate_check', { check: { name: 'Checkout API', type: 'http', target: 'https://shop.example.com/api/health' } });
    expect(good.structuredContent).toMatchObject({
      valid: true,
      slugInUse: false,
      check: { slug: 'checkout-api', enabled: true, intervalSeconds: 60, labels: {}, config: { method: 'GET' } },
    });
    expect(await checkCount(daemon)).toBe(before);
    expect((await daemon.request('GET', '/orgs/default/checks/checkout-api', { token: admin })).status).toBe(404);
  });

  it('creates a check that the REST API then shows, and refuses an invalid one or a taken slug', async () => {
    const created = await call(agent, 'create_check', {
      check: { name: 'Checkout API', type: 'http', target: 'https://shop.example.com/api/health', labels: { team: 'shop' } },
    });
    expect(created.isError, created.text).toBeFalsy();
    expect(created.structuredContent).toMatchObject({ check: { slug: 'checkout-api', type: 'http', labels: { team: 'shop' } } });
    expect(created.text).toContain('Created check "checkout-api"');

    const rest = await daemon.request('GET', '/orgs/default/checks/checkout-api', { token: admin });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual((created.structuredContent as { check: unknown }).check);

    const again = await call(agent, 'create_check', { check: { name: 'Checkout API', type: 'http', target: 'https://example.com' } });
    expect(again.isError).toBe(true);
    expect(again.text).toMatch(/^CONFLICT \(SLUG_TAKEN\): A check with slug "checkout-api" already exists/);
    const taken = await call(agent, 'validate_check', { check: { name: 'Checkout API', type: 'http', target: 'https://example.com' } });
    expect(taken.structuredContent).toMatchObject({ valid: true, slugInUse: true });

    const before = await checkCount(daemon);
    const invalid = await call(agent, 'create_check', { check: { name: 'No target', type: 'tcp', thresholds: { timeoutMs: 5 } } });
    expect(invalid.isError).toBe(true);
    expect(invalid.text).toContain('VALIDATION_FAILED: The check is not valid.');
    expect(invalid.text).toContain('- target: required');
    expect(invalid.text).toContain('- thresholds.timeoutMs: must be at least 100');
    expect(await checkCount(daemon)).toBe(before);
  });

  it('lists, reads, changes and deletes checks as the REST API does', async () => {
    await call(agent, 'create_check', { check: { name: 'DNS apex', type: 'dns', target: 'example.com', labels: { team: 'net', env: 'prod' } } });
    const listed = await call(agent, 'list_checks', { label: 'team=net' });
    expect((listed.structuredContent as { items: { slug: string }[] }).items.map((c) => c.slug)).toEqual(['dns-apex']);
    const both = await call(agent, 'list_checks', { label: ['team=net', 'env=staging'] });
    expect((both.structuredContent as { items: unknown[] }).items).toEqual([]);
    const byType = await call(agent, 'list_checks', { type: 'http', limit: 1 });
    expect(byType.structuredContent).toMatchObject({ items: [{ slug: 'checkout-api' }], nextCursor: null });
    const badFilter = await call(agent, 'list_checks', { label: 'team', type: 'gopher' });
    expect(badFilter.isError).toBe(true);
    expect(badFilter.text).toContain('- label: "team" is not of the form key=value');
    expect(badFilter.text).toContain('- type: unknown check type "gopher"');

    const got = await call(agent, 'get_check', { slug: 'dns-apex' });
    expect(got.structuredContent).toMatchObject({ check: { slug: 'dns-apex', type: 'dns', target: 'example.com' } });

    const changed = await call(agent, 'update_check', { slug: 'dns-apex', changes: { intervalSeconds: 300, labels: { env: null, tier: 'gold' } } });
    expect(changed.isError, changed.text).toBeFalsy();
    expect(changed.structuredContent).toMatchObject({ check: { intervalSeconds: 300, labels: { team: 'net', tier: 'gold' } } });
    expect((await daemon.request('GET', '/orgs/default/checks/dns-apex', { token: admin })).body.labels).toEqual({ team: 'net', tier: 'gold' });
    const invalidChange = await call(agent, 'update_check', { slug: 'dns-apex', changes: { intervalSeconds: 1 } });
    expect(invalidChange.text).toMatch(/^VALIDATION_FAILED: The changed check is not valid.*\n- intervalSeconds: must be at least 10/);

    const deleted = await call(agent, 'delete_check', { slug: 'dns-apex' });
    expect(deleted.structuredContent).toEqual({ deleted: true, slug: 'dns-apex' });
    expect((await daemon.request('GET', '/orgs/default/checks/dns-apex', { token: admin })).status).toBe(404);
    for (const name of ['get_check', 'delete_check']) {
      const missing = await call(agent, name, { slug: 'dns-apex' });
      expect(missing.isError).toBe(true);
      expect(missing.text).toBe('NOT_FOUND: No check with slug "dns-apex" in this organization.');
    }
  });

  it('lists incidents, newest first, by status', async () => {
    await daemon.request('POST', '/orgs/default/incidents', { token: admin, body: { title: 'Checkout slow', checkSlug: 'checkout-api' } });
    const second = await daemon.request('POST', '/orgs/default/incidents', { token: admin, body: { title: 'Shop down' } });
    await daemon.request('POST', `/orgs/default/incidents/${second.body.uid}/resolve`, { token: admin });
    const all = await call(agent, 'list_incidents');
    expect(all.structuredContent).toMatchObject({
      items: [
        { title: 'Shop down', status: 'resolved' },
        { title: 'Checkout slow', status: 'open', checkSlug: 'checkout-api' },
      ],
      nextCursor: null,
    });
    const open = await call(agent, 'list_incidents', { status: 'open', limit: 5 });
    expect((open.structuredContent as { items: { title: string }[] }).items.map((i) => i.title)).toEqual(['Checkout slow']);
    const paged = await call(agent, 'list_incidents', { limit: 1 });
    const cursor = (paged.structuredContent as { nextCursor: string }).nextCursor;
    const next = await call(agent, 'list_incidents', { limit: 1, cursor });
    expect((next.structuredContent as { items: { title: string }[] }).items.map((i) => i.title)).toEqual(['Checkout slow']);
  });

  it('answers bad arguments as tool errors naming each problem, and keeps serving', async () => {
    const cases: [string, Record<string, unknown>, string[]][] = [
      ['get_check_type_sample', {}, ['- type: required']],
      ['create_check', { check: 'name: x' }, ['- check: expected an object, got a string']],
      ['update_check', { slug: 'x', changes: {}, extra: 1 }, ['- extra: unknown field']],
      [
        'list_incidents',
        { status: 'burning', limit: 0, cursor: 'nope' },
        ['- status: must be one of', '- limit: must be at least 1', '- cursor: is not a cursor'],
      ],
      ['list_checks', { org: 42 }, ['- org: expected the slug of an organization']],
      ['list_check_types', { includeSchemas: 'yes' }, ['- includeSchemas: expected true or false']],
    ];
    for (const [name, args, expected] of cases) {
      const result = await call(agent, name, args);
      expect(result.isError, name).toBe(true);
      expect(result.text, name).toMatch(new RegExp(`^Invalid arguments for ${name}:`));
      for (const line of expected) expect(result.text, name).toContain(line);
    }
    const unknown = await agent.callTool({ name: 'drop_database', arguments: {} });
    expect(unknown.isError).toBe(true);
    expect((await call(agent, 'list_checks')).isError).toBeFalsy();
  });

  it('with a session token, takes the organization from a required org argument', async () => {
    const session = await connectMcp(daemon, admin);
    try {
      const { tools } = await session.listTools();
      const create = tools.find((tool) => tool.name === 'create_check')!;
      expect(create.inputSchema.required).toEqual(['org', 'check']);
      expect(tools.find((tool) => tool.name === 'list_check_types')!.inputSchema.properties).not.toHaveProperty('org');

      const missing = await call(session, 'list_checks');
      expect(missing.isError).toBe(true);
      expect(missing.text).toContain('needs the "org" argument');
      const foreign = await call(session, 'list_checks', { org: 'nowhere' });
      expect(foreign.text).toBe('Organization "nowhere" not found, or you are not a member of it.');
      const listed = await call(session, 'list_checks', { org: 'default', type: 'http' });
      expect(listed.structuredContent).toMatchObject({ items: [{ slug: 'checkout-api' }] });
      expect((await call(session, 'list_check_types')).isError).toBeFalsy();
    } finally {
      await session.close();
    }
  });

  it('logged no error and no token while serving all of the above', () => {
    expect(daemon.logs.filter((line) => JSON.parse(line).level >= 50)).toEqual([]);
    expect(daemon.logs.join('\n')).not.toMatch(/svc_pat_/);
  });

  it('binds an access token to its organization', async () => {
    const other = await daemon.request('POST', '/orgs', { token: admin, body: { slug: 'other', name: 'Other' } });
    expect(other.status).toBe(201);
    const result = await call(agent, 'list_checks', { org: 'other' });
    expect(result.isError).toBe(true);
    expect(result.text).toContain('This access token belongs to organization "default"; it cannot act on "other"');
    expect((await call(agent, 'list_checks', { org: 'default' })).isError).toBeFalsy();
  });
});
