import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { can, type OrgPermission } from '../../../daemon/access/permissions.js';
import { isStateChanging, type RouteSpec } from '../../../daemon/http/route.js';
import { ROUTES } from '../../../daemon/routes/index.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { addMember, createOrg, fillPath, mintToken } from './helpers.js';

/**
 * The state-changing routes a viewer may still call: its own notification settings, its own API
 * tokens and its own membership (leaving). Listed by hand, so that a new route is exempt only by a deliberate change here.
 */
const VIEWER_MAY_CALL = new Set(['POST /auth/tokens', 'DELETE /auth/tokens/:uid', 'PUT /auth/me/notification-settings', 'DELETE /orgs/:org/members/me']);

const key = (spec: RouteSpec) => `${spec.method} ${spec.path}`;
const isOrgRoute = (spec: RouteSpec) => spec.path === '/orgs/:org' || spec.path.startsWith('/orgs/:org/');
const orgWrites = ROUTES.filter((spec) => isOrgRoute(spec) && isStateChanging(spec.method) && !VIEWER_MAY_CALL.has(key(spec)));

describe('the route table', () => {
  it('has org routes, and every org permission sits on an /orgs/:org route', () => {
    expect(orgWrites.length).toBeGreaterThan(5);
    for (const spec of ROUTES) {
      if (!['public', 'authenticated', 'superAdmin'].includes(spec.permission)) expect(isOrgRoute(spec), key(spec)).toBe(true);
    }
  });

  it('exempts only routes of the viewer’s own settings and tokens', () => {
    for (const spec of ROUTES.filter((s) => VIEWER_MAY_CALL.has(key(s)))) {
      expect(['authenticated', 'own-notification-settings:write', 'own-tokens:write', 'own-membership:leave'], key(spec)).toContain(spec.permission);
    }
  });
});

describe.each(DATABASE_KINDS)('a viewer on every state-changing org route [%s]', (kind) => {
  let daemon: TestDaemon;
  let session: string;
  let token: string;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
    const admin = await daemon.adminToken();
    await createOrg(daemon, admin, 'acme');
    session = (await addMember(daemon, 'acme', admin, 'viewer@example.com', 'viewer')).token;
    token = await mintToken(daemon, session, 'acme');
  });
  afterAll(() => daemon.stop());

  it.each(orgWrites.map((spec) => [key(spec), spec] as const))('%s answers 403 FORBIDDEN to a session and a token', async (_name, spec) => {
    const path = fillPath(spec.path, 'acme');
    for (const credential of [session, token]) {
      const res = await daemon.request(spec.method, path, { token: credential, body: {} });
      expect(res.status, `${spec.method} ${path}: ${JSON.stringify(res.body)}`).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
  });

  it('reads what its role allows and is refused the rest, by the same table', async () => {
    const reads = ROUTES.filter((spec) => isOrgRoute(spec) && spec.method === 'GET');
    expect(reads.length).toBeGreaterThan(2);
    for (const spec of reads) {
      const res = await daemon.request('GET', fillPath(spec.path, 'acme'), { token: session });
      const allowed = can('viewer', spec.permission as OrgPermission);
      // An allowed read may still answer 404 for a dummy id; it never answers FORBIDDEN.
      if (allowed) expect(res.body?.error?.code, `${key(spec)}: ${JSON.stringify(res.body)}`).not.toBe('FORBIDDEN');
      else expect(res.status, key(spec)).toBe(403);
    }
  });

  it('may mint and revoke its own tokens', async () => {
    const minted = await daemon.request('POST', '/auth/tokens', { token: session, body: { name: 'mine', org: 'acme' } });
    expect(minted.status).toBe(201);
    expect((await daemon.request('DELETE', `/auth/tokens/${minted.body.uid}`, { token: session })).status).toBe(204);
  });

  it('gets 403 on every super-admin route that changes state', async () => {
    const routes = ROUTES.filter((spec) => spec.permission === 'superAdmin' && isStateChanging(spec.method));
    expect(routes.length).toBeGreaterThan(0);
    for (const spec of routes) {
      const res = await daemon.request(spec.method, fillPath(spec.path, 'acme'), { token: session, body: {} });
      expect(res.status, key(spec)).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
  });
});
