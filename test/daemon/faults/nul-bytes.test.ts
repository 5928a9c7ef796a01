import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../../daemon/routes/index.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';

const withParams = (path: string, value: (name: string) => string) => path.replace(/:(\w+)/g, (_, name: string) => value(name));
const noStackLogged = (daemon: TestDaemon) => daemon.logs.filter((line) => /unexpected error|"stack"/.test(line));

describe.each(DATABASE_KINDS)('a NUL byte is refused at the edge [%s]', (kind) => {
  let daemon: TestDaemon;
  let admin: string;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
    admin = await daemon.adminToken();
  });
  afterAll(() => daemon.stop());

  it('answers 404 to %00 in any path parameter of every route, signed in or not', async () => {
    const withParameters = ROUTES.filter((spec) => spec.path.includes(':'));
    expect(withParameters.length).toBeGreaterThan(50);
    for (const spec of withParameters) {
      const paramNames = [...spec.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
      for (const target of paramNames) {
        const path = withParams(spec.path, (name) => (name === target ? 'abc%00' : name === 'org' ? 'default' : 'abc'));
        for (const token of [undefined, admin]) {
          const res = await daemon.request(spec.method, path, { token, body: spec.body ? { name: 'x' } : undefined });
          expect(res.status, `${spec.method} ${path}`).toBe(404);
          expect(res.body.error.code).toBe('NOT_FOUND');
        }
      }
    }
    expect((await daemon.request('GET', '/ping/abc%00')).status).toBe(404);
    for (const path of ['/status/default/abc%00', '/status/de%00fault/page', '/status/default/abc%00/feed.atom']) {
      const res = await fetch(`${daemon.url}${path}`);
      expect(res.status, path).toBe(404);
    }
    expect(noStackLogged(daemon)).toEqual([]);
  });

  it('answers 400 to \\u0000 in any query string, naming the parameter', async () => {
    for (const spec of ROUTES) {
      const path = withParams(spec.path, (name) => (name === 'org' ? 'default' : 'abc'));
      const res = await daemon.request(spec.method, `${path}?q=a%00b`, { token: admin, body: spec.body ? {} : undefined });
      expect(res.status, `${spec.method} ${path}`).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { issues: [{ path: 'q', message: 'must not contain a NUL character' }] } });
    }
    expect(noStackLogged(daemon)).toEqual([]);
  });

  it('answers 400 to \\u0000 in any JSON body string or key, anonymous callers too', async () => {
    const login = await daemon.request('POST', '/auth/login', { body: { email: 'admin@svc.local\u0000', password: 'x' } });
    expect(login.status).toBe(400);
    expect(login.body.error.details.issues).toEqual([{ path: 'email', message: 'must not contain a NUL character' }]);
    const withBody = ROUTES.filter((spec) => spec.body);
    expect(withBody.length).toBeGreaterThan(30);
    for (const spec of withBody) {
      const path = withParams(spec.path, (name) => (name === 'org' ? 'default' : 'abc'));
      for (const body of [{ name: 'a\u0000b' }, { nested: [{ 'k\u0000': 1 }] }]) {
        const res = await daemon.request(spec.method, path, { token: spec.permission === 'public' ? undefined : admin, body });
        // A route that refuses the caller first (401/403/404 before the body is read) never reaches the database either.
        expect([400, 401, 403, 404], `${spec.method} ${path}: ${JSON.stringify(res.body)}`).toContain(res.status);
        if (res.status === 400) expect(JSON.stringify(res.body.error.details.issues)).toContain('must not contain a NUL character');
      }
    }
    // The MCP endpoint reads its JSON the same way.
    const mcp = await fetch(`${daemon.url}/api/v1/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_check', arguments: { slug: 'a\u0000' } } }),
    });
    expect(mcp.status).toBe(400);
    expect(noStackLogged(daemon)).toEqual([]);
  });

  it('keeps the NUL of a check’s payload, which is stored as JSON', async () => {
    const created = await daemon.request('POST', '/orgs/default/checks', {
      token: admin,
      body: { name: 'Game server', type: 'udp', target: '127.0.0.1:27015', config: { send: '\u00ff\u00ffTSource Engine Query\u0000' } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.config.send).toBe('\u00ff\u00ffTSource Engine Query\u0000');
    const named = await daemon.request('POST', '/orgs/default/checks', {
      token: admin,
      body: { name: 'Bad\u0000name', type: 'udp', target: '127.0.0.1:27015' },
    });
    expect(named.status).toBe(400);
  });
});
