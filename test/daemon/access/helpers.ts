import { expect } from 'vitest';
import type { TestDaemon } from '../../support/daemon.js';

/** Creates an organization as the holder of `token` (its owner). */
export async function createOrg(daemon: TestDaemon, token: string, slug: string, name = slug): Promise<void> {
  const res = await daemon.request('POST', '/orgs', { token, body: { slug, name } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

/** Registers an account and brings it into `org` with `role` through an invitation. */
export async function addMember(daemon: TestDaemon, org: string, inviterToken: string, email: string, role: string): Promise<{ token: string; uid: string }> {
  const account = await daemon.register(email);
  const invited = await daemon.request('POST', `/orgs/${org}/invitations`, { token: inviterToken, body: { email, role } });
  expect(invited.status, JSON.stringify(invited.body)).toBe(201);
  const accepted = await daemon.request('POST', `/invitations/${invited.body.token}/accept`, { token: account.token });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  return account;
}

/** Mints a personal access token and returns its secret. */
export async function mintToken(daemon: TestDaemon, token: string, org: string, scopes?: string[]): Promise<string> {
  const res = await daemon.request('POST', '/auth/tokens', { token, body: { name: `t-${org}`, org, ...(scopes ? { scopes } : {}) } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.token as string;
}

/** Fills a route path: `:org` with the given slug, every other parameter with a dummy value. */
export function fillPath(path: string, org: string): string {
  return path.replace(/:([A-Za-z_]+)/g, (_, name: string) => (name === 'org' ? org : `dummy-${name.toLowerCase()}`));
}

/** Sets a member's role directly in the database, as an out-of-band change would. */
export async function roleOf(daemon: TestDaemon, org: string, token: string): Promise<string | undefined> {
  const me = await daemon.request('GET', '/auth/me', { token });
  return (me.body.organizations as { slug: string; role: string }[]).find((o) => o.slug === org)?.role;
}
