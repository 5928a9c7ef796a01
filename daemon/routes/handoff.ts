import { z } from 'zod';
import { consumeHandoffCode } from '../auth/handoff.js';
import { sessionOrChallenge } from '../auth/totp-login.js';
import { findUser } from '../accounts/users.js';
import { unauthorized } from '../errors.js';
import { route, type RouteSpec } from '../http/route.js';

/** The dashboard's side of an external sign-in: the one-time code for the session. */
export const handoffRoutes: RouteSpec[] = [
  route({
    method: 'POST',
    path: '/auth/handoff/exchange',
    permission: 'public',
    response: 'HandoffAnswer',
    summary: 'Exchange the one-time code of /d/auth/complete for the session (or an mfa challenge) and the returnTo path.',
    body: z.object({ code: z.string().min(1).max(200) }),
    async handler({ ctx, deps, body }) {
      const { userUid, method, returnTo } = await consumeHandoffCode(deps, body.code);
      const user = await findUser(deps, userUid);
      if (!user) throw unauthorized('The sign-in code is unknown, expired or already used; sign in again.');
      return { ...(await sessionOrChallenge(deps, user, method, ctx)), returnTo };
    },
  }),
];
