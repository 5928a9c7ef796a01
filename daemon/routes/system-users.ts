import { z } from 'zod';
import { changeEmail } from '../accounts/email-change.js';
import { callerAccount } from '../access/caller-account.js';
import { accountView } from '../accounts/account.js';
import { emailField } from '../auth/schemas.js';
import { normalizeEmail, requireUser } from '../accounts/users.js';
import { parsePage, toPage } from '../http/pagination.js';
import { route, type RouteSpec } from '../http/route.js';
import type { SystemUser } from '../../contract/responses.js';

/** Every account of the server (super admin only). */
export const systemUserRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/system/users',
    permission: 'superAdmin',
    response: 'SystemUserPage',
    summary: 'All accounts, oldest first; ?email= finds one by address; ?limit=, ?cursor=.',
    async handler({ deps, query }) {
      const page = parsePage(query);
      let select = deps.db.kysely.selectFrom('users').selectAll();
      const email = query.get('email');
      if (email) select = select.where('email', '=', normalizeEmail(email));
      if (page.cursor) select = select.where('uid', '>', page.cursor);
      const rows = await select
        .orderBy('uid')
        .limit(page.limit + 1)
        .execute();
      return toPage(
        rows,
        page.limit,
        (user): SystemUser => ({
          uid: user.uid,
          email: user.email,
          name: user.name,
          emailVerified: user.email_verified === 1,
          hasPassword: user.password_hash !== null,
          superAdmin: user.super_admin === 1,
          createdAt: user.created_at,
        }),
      );
    },
  }),
  route({
    method: 'PATCH',
    path: '/system/users/:uid',
    permission: 'superAdmin',
    response: 'Account',
    summary:
      "Change any account's e-mail address; no password needed. All of the account's sessions end (and with `revokeTokens: true` its personal access tokens).",
    body: z.object({ email: emailField, revokeTokens: z.boolean().optional() }),
    async handler({ deps, auth, params, body }) {
      const target = await requireUser(deps, params.uid);
      const user = await changeEmail(deps, {
        target,
        newEmail: body.email,
        actor: auth.user,
        by: 'super_admin',
        revokeTokens: body.revokeTokens === true,
        // A super admin changing their own address keeps the session they did it with.
        keepSessionIdHash: target.uid === auth.user.uid ? auth.session?.id_hash : undefined,
      });
      return accountView(deps.db, callerAccount(user));
    },
  }),
];
