import { newId } from '../db/ids.js';
import type { User } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { conflict, notFound } from '../errors.js';
import { withoutControlCharacters } from '../plain-text.js';

type Deps = Pick<AppDeps, 'db' | 'clock'>;

/** E-mail addresses are compared case-insensitively, so they are stored lower-cased. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

export async function findUserByEmail(deps: Pick<AppDeps, 'db'>, email: string): Promise<User | undefined> {
  return deps.db.kysely.selectFrom('users').selectAll().where('email', '=', normalizeEmail(email)).executeTakeFirst();
}

export async function findUser(deps: Pick<AppDeps, 'db'>, uid: string): Promise<User | undefined> {
  return deps.db.kysely.selectFrom('users').selectAll().where('uid', '=', uid).executeTakeFirst();
}

/** The account `uid`; 404 when there is none. */
export async function requireUser(deps: Pick<AppDeps, 'db'>, uid: string): Promise<User> {
  const user = await findUser(deps, uid);
  if (!user) throw notFound('User not found.');
  return user;
}

/** Creates an account; 409 CONFLICT (EMAIL_TAKEN) when the address is in use. */
export async function createUser(
  deps: Deps,
  input: { email: string; name?: string; passwordHash: string | null; emailVerified?: boolean; superAdmin?: boolean; mustChangePassword?: boolean },
): Promise<User> {
  const now = deps.clock.now();
  const email = normalizeEmail(input.email);
  const user: User = {
    uid: newId(now.getTime()),
    email,
    name:
      withoutControlCharacters(input.name ?? '')
        .trim()
        .slice(0, 200) || email.split('@')[0],
    password_hash: input.passwordHash,
    email_verified: input.emailVerified ? 1 : 0,
    super_admin: input.superAdmin ? 1 : 0,
    must_change_password: input.mustChangePassword ? 1 : 0,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  const inserted = await deps.db.kysely
    .insertInto('users')
    .values(user)
    .onConflict((oc) => oc.column('email').doNothing())
    .returning('uid')
    .executeTakeFirst();
  if (!inserted) throw conflict('EMAIL_TAKEN', 'An account with this e-mail address already exists.');
  return user;
}
