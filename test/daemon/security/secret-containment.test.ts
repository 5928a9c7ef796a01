import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../daemon/clock.js';
import type { Runner } from '../../../daemon/runner/runner.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { startFakeReceivers, type FakeReceivers } from '../../support/fakes/notify-receivers.js';
import { testRunner } from '../../support/runner.js';
import { call as callTool, connectMcp, mintToken } from '../mcp/mcp-client.js';

// A value with characters every encoding changes: quote, backslash, slash, plus, equals, ampersand.
const SECRET = 'Zq8"Xw\\p4/Lm+Ty=Nv&Kc?Rb7Hs%Gj';

/** Every 8-character piece of SECRET that `text` shows: as is (any case), JSON-escaped, URL-encoded, or in base64. */
function piecesShown(text: string): string[] {
  const shown: string[] = [];
  const lower = text.toLowerCase();
  const decoded = [...text.matchAll(/[A-Za-z0-9+/_-]{8,}={0,2}/g)].map((run) =>
    Buffer.from(run[0], run[0].includes('-') || run[0].includes('_') ? 'base64url' : 'base64').toString('latin1'),
  );
  for (let at = 0; at + 8 <= SECRET.length; at++) {
    const piece = SECRET.slice(at, at + 8);
    const forms = [piece, JSON.stringify(piece).slice(1, -1), encodeURIComponent(piece)];
    for (const form of forms) if (lower.includes(form.toLowerCase())) shown.push(form);
    if (decoded.some((bytes) => bytes.includes(piece))) shown.push(`base64 of ${piece}`);
  }
  return shown;
}

/** Every string in a JSON document, wherever it is. */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(stringsOf);
  return [];
}

// JSON queries that read the Authorization header the target echoes, each showing the secret otherwise.
const EXPRESSIONS = {
  echoed: 'auth',
  cut: '$substring(auth, 10, 14)',
  upper: '$uppercase(auth)',
  base64: '$base64encode(auth)',
  url: '$encodeUrlComponent(auth)',
  json: '$string({"a": auth})',
};

describe.each(DATABASE_KINDS)('secret values stay out of results, state, incidents and notifications [%s]', (kind) => {
  const clock = manualClock(new Date('2026-03-01T10:00:00Z'));
  let daemon: TestDaemon;
  let admin: string;
  let runner: Runner;
  let target: Server;
  let receiver: FakeReceivers;
  let url: string;

  beforeAll(async () => {
    // The target echoes the request's Authorization header back as JSON.
    target = createServer((req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ auth: req.headers.authorization ?? '' })),
    );
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    receiver = await startFakeReceivers();
    daemon = await startTestDaemon(kind, { clock });
    admin = await daemon.adminToken();
    runner = testRunner(daemon, clock);
    expect((await daemon.request('PUT', '/orgs/default/secrets/API_TOKEN', { token: admin, body: { value: SECRET } })).status).toBe(200);
    const hook = await daemon.request('POST', '/orgs/default/notification-channels', {
      token: admin,
      body: { name: 'hook', type: 'webhook', config: { url: `${receiver.url}/hook` }, default: true },
    });
    expect(hook.status).toBe(201);
  });
  afterAll(async () => {
    await daemon?.stop();
    await receiver?.close();
    await new Promise<void>((resolve) => target.close(() => resolve()));
  });

  it('shows no 8-character piece of a secret the target echoes, however the check encodes or cuts it', async () => {
    for (const [name, expression] of Object.entries(EXPRESSIONS)) {
      const created = await daemon.request('POST', '/orgs/default/checks', {
        token: admin,
        body: {
          name,
          type: 'http',
          target: `${url}/echo`,
          intervalSeconds: 30,
          thresholds: { failuresBeforeDown: 1, timeoutMs: 2000 },
          config: { headers: { Authorization: 'Bearer {{secrets.API_TOKEN}}' }, jsonQueries: [{ expression, expected: 'nothing' }] },
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
    clock.advance(30_000);
    await runner.tick();
    const notifications = await receiver.waitFor('/hook', Object.keys(EXPRESSIONS).length);
    const run = await daemon.request('POST', '/orgs/default/checks/echoed/run', { token: admin });
    expect(run.body).toMatchObject({ status: 'down' });

    const texts: Record<string, string[]> = { run: stringsOf(run.body), notifications: stringsOf(notifications.map((n) => n.json)) };
    for (const slug of Object.keys(EXPRESSIONS)) {
      const check = await daemon.request('GET', `/orgs/default/checks/${slug}`, { token: admin });
      expect(check.body).toMatchObject({ state: 'down', lastResult: { status: 'down', message: expect.stringContaining('expected == "nothing"') } });
      texts[`${slug} state`] = stringsOf(check.body);
      texts[`${slug} results`] = stringsOf((await daemon.request('GET', `/orgs/default/checks/${slug}/results`, { token: admin })).body);
    }
    const incidents = await daemon.request('GET', '/orgs/default/incidents', { token: admin });
    expect(incidents.body.items).toHaveLength(Object.keys(EXPRESSIONS).length);
    texts.incidents = stringsOf(incidents.body);
    for (const incident of incidents.body.items)
      texts[`incident ${incident.uid}`] = stringsOf((await daemon.request('GET', `/orgs/default/incidents/${incident.uid}`, { token: admin })).body);
    // What the database keeps, as stored.
    const db = daemon.deps.db.kysely;
    texts.stored = [
      ...(await db.selectFrom('check_results').select('message').execute()).map((row) => String(row.message)),
      ...(await db.selectFrom('incidents').selectAll().execute()).flatMap(stringsOf),
    ];
    texts.logs = daemon.logs;

    const leaks = Object.entries(texts).flatMap(([where, strings]) =>
      strings.flatMap((text) => piecesShown(text).map((piece) => `${where}: ${piece} in ${text}`)),
    );
    expect(leaks).toEqual([]);
    // The rest of the message stays readable.
    expect(texts['echoed state'].join('\n')).toContain('[withheld: contained a secret], expected == "nothing"');
  });

  it('refuses a secret reference outside a credential field with 400 naming the field (REST and MCP)', async () => {
    const base = { type: 'http', target: `${url}/ok`, config: { headers: { Authorization: 'Bearer {{secrets.API_TOKEN}}' } } };
    const refusals: [unknown, string][] = [
      [{ ...base, name: 'In path', target: `${url}/{{secrets.API_TOKEN}}` }, 'target'],
      [{ ...base, name: 'In keyword', config: { keyword: { value: '{{secrets.API_TOKEN}}' } } }, 'config.keyword.value'],
      [{ ...base, name: 'In query', config: { jsonQueries: [{ expression: '"{{secrets.API_TOKEN}}"', expected: 'x' }] } }, 'config.jsonQueries.0.expression'],
      [{ ...base, name: 'In body', config: { method: 'POST', body: 'token={{secrets.API_TOKEN}}' } }, 'config.body'],
    ];
    for (const [body, field] of refusals) {
      for (const path of ['/orgs/default/checks', '/orgs/default/checks/validate']) {
        const refused = await daemon.request('POST', path, { token: admin, body });
        expect(refused.status, `${path} ${field}`).toBe(400);
        expect(refused.body.error).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining(field) });
        expect(refused.body.error.details.issues).toContainEqual({ path: field, message: expect.stringContaining('credential field') });
      }
    }
    // A change that moves a reference into a keyword is refused the same way.
    expect((await daemon.request('POST', '/orgs/default/checks', { token: admin, body: { ...base, name: 'Allowed' } })).status).toBe(201);
    const patched = await daemon.request('PATCH', '/orgs/default/checks/allowed', {
      token: admin,
      body: { config: { keyword: { value: 'x {{secrets.API_TOKEN}}' } } },
    });
    expect(patched.status).toBe(400);
    expect(patched.body.error.details.issues).toContainEqual({ path: 'config.keyword.value', message: expect.stringContaining('credential field') });

    const client = await connectMcp(daemon, await mintToken(daemon, admin, ['mcp']));
    try {
      const [body] = refusals[1];
      const validated = await callTool(client, 'validate_check', { check: body });
      expect(validated.structuredContent).toMatchObject({ valid: false, issues: [{ path: 'config.keyword.value' }] });
      const created = await callTool(client, 'create_check', { check: body });
      expect(created.isError).toBe(true);
      expect(created.text).toContain('config.keyword.value');
    } finally {
      await client.close();
    }
    expect((await daemon.request('GET', '/orgs/default/checks/in-keyword', { token: admin })).status).toBe(404);
  });
});
