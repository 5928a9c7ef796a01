import { newId } from '../db/ids.js';
import type { AppDeps } from '../deps.js';
import { inTransaction } from '../db/in-transaction.js';

/** The built-in password of the first super admin; it must be changed at first sign-in. */
export const BUILT_IN_ADMIN_PASSWORD = 'svc-admin';

/**
 * On the first start of a database with no organization: creates the organization `default` and
 * the super admin. Safe when several daemons start at once: the unique organization slug lets
 * exactly one of them create both, in one transaction. Returns the admin's e-mail when it did.
 */
export async function bootstrapFirstStart(deps: Pick<AppDeps, 'db' | 'config' | 'clock' | 'hasher'>): Promise<string | undefined> {
  const existing = await deps.db.kysely.selectFrom('organizations').select('uid').limit(1).executeTakeFirst();
  if (existing) return undefined;
  const passwordHash = await deps.hasher.hash(BUILT_IN_ADMIN_PASSWORD);
  const now = deps.clock.now().toISOString();
  const email = deps.config.adminEmail;
  return inTransaction(deps.db.kysely, async (trx) => {
    const orgUid = newId();
    const created = await trx
      .insertInto('organizations')
      .values({ uid: orgUid, slug: 'default', name: 'Default', member_limit: null, created_at: now })
      .onConflict((oc) => oc.column('slug').doNothing())
      .returning('uid')
      .executeTakeFirst();
    if (!created) return undefined;
    let admin = await trx.selectFrom('users').select('uid').where('email', '=', email).executeTakeFirst();
    if (!admin) {
      admin = { uid: newId() };
      await trx
        .insertInto('users')
        .values({
          uid: admin.uid,
          email,
          name: 'Administrator',
          password_hash: passwordHash,
          email_verified: 1,
          super_admin: 1,
          must_change_password: 1,
          created_at: now,
          updated_at: now,
        })
        .execute();
    }
    await trx.insertInto('members').values({ organization_uid: orgUid, user_uid: admin.uid, role: 'owner', created_at: now }).execute();
    return email;
  });
}
