import type { Role } from '../../daemon/access/permissions.js';
import type { TestDaemon } from './daemon.js';

/**
 * Registers an account and makes it a member of `orgSlug` with `role`, written straight to the
 * database so that suites about other resources do not depend on the member API. Returns the
 * account's session token and uid.
 */
export async function addMember(daemon: TestDaemon, email: string, role: Role, orgSlug = 'default'): Promise<{ token: string; uid: string }> {
  const account = await daemon.register(email);
  const db = daemon.deps.db.kysely;
  const org = await db.selectFrom('organizations').select('uid').where('slug', '=', orgSlug).executeTakeFirstOrThrow();
  await db
    .insertInto('members')
    .values({ organization_uid: org.uid, user_uid: account.uid, role, created_at: new Date().toISOString() })
    .onConflict((oc) => oc.columns(['organization_uid', 'user_uid']).doUpdateSet({ role }))
    .execute();
  return account;
}

/** Changes a member's role in the database, as a demotion by an admin would. */
export async function setRole(daemon: TestDaemon, userUid: string, role: Role, orgSlug = 'default'): Promise<void> {
  const db = daemon.deps.db.kysely;
  const org = await db.selectFrom('organizations').select('uid').where('slug', '=', orgSlug).executeTakeFirstOrThrow();
  await db.updateTable('members').set({ role }).where('organization_uid', '=', org.uid).where('user_uid', '=', userUid).execute();
}
