import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { addMember, createOrg, mintToken } from './helpers.js';

/** The role is read from the database on every request, not from the credential. */
describe.each(DATABASE_KINDS)('demotion mid-session [%s]', (kind) => {
  let daemon: TestDaemon;
  let owner: string;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
    owner = await daemon.adminToken();
    await createOrg(daemon, owner, 'acme');
  });
  afterAll(() => daemon.stop());

  // A write an admin may make and a viewer may not, on a route of this issue's own.
  const write = (credential: string, limit: number) => daemon.request('PATCH', '/orgs/acme', { token: credential, body: { memberLimit: limit } });
  const demote = async (uid: string, role: string) => {
    const res = await daemon.request('PATCH', `/orgs/acme/members/${uid}`, { token: owner, body: { role } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };

  it('blocks the very next write of a session', async () => {
    const admin = await addMember(daemon, 'acme', owner, 'demoted-session@example.com', 'admin');
    expect((await write(admin.token, 50)).status).toBe(200);
    await demote(admin.uid, 'viewer');
    const blocked = await write(admin.token, 51);
    expect(blocked.status).toBe(403);
    expect(blocked.body.error.code).toBe('FORBIDDEN');
    // Reading is still fine, and the session itself was not touched.
    expect((await daemon.request('GET', '/orgs/acme', { token: admin.token })).body.role).toBe('viewer');
    await demote(admin.uid, 'admin');
    expect((await write(admin.token, 52)).status).toBe(200);
  });

  it('blocks the very next write of a personal access token', async () => {
    const admin = await addMember(daemon, 'acme', owner, 'demoted-token@example.com', 'admin');
    const token = await mintToken(daemon, admin.token, 'acme');
    expect((await write(token, 60)).status).toBe(200);
    await demote(admin.uid, 'viewer');
    const blocked = await write(token, 61);
    expect(blocked.status).toBe(403);
    expect(blocked.body.error.code).toBe('FORBIDDEN');
    expect((await daemon.request('GET', '/orgs/acme', { token })).status).toBe(200);
  });

  it('a token minted by a viewer can only read', async () => {
    const viewer = await addMember(daemon, 'acme', owner, 'viewer-minter@example.com', 'viewer');
    const token = await mintToken(daemon, viewer.token, 'acme', ['api']);
    expect((await daemon.request('GET', '/orgs/acme/members', { token })).status).toBe(200);
    const res = await write(token, 70);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
  });

  it('a token whose owner left the organization stops working', async () => {
    const member = await addMember(daemon, 'acme', owner, 'leaver@example.com', 'user');
    const token = await mintToken(daemon, member.token, 'acme');
    expect((await daemon.request('GET', '/orgs/acme', { token })).status).toBe(200);
    expect((await daemon.request('DELETE', `/orgs/acme/members/${member.uid}`, { token: owner })).status).toBe(204);
    const res = await daemon.request('GET', '/orgs/acme', { token });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
  });
});
