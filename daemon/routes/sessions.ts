import { requireSession } from '../access/session-only.js';
import { revokeUserSessions } from '../auth/sessions.js';
import { requireUser } from '../accounts/users.js';
import type { Session } from '../db/schema.js';
import { notFound, validationFailed } from '../errors.js';
import { route, type RouteSpec } from '../http/route.js';
import type { SessionView as ContractSessionView } from '../../contract/responses.js';

/** A session as its owner sees it: never the credential, only the public handle `id`. */
export type SessionView = ContractSessionView;

const view = (session: Session, currentUid: string | undefined): SessionView => ({
  id: session.uid,
  method: session.method,
  clientAddress: session.client_address,
  userAgent: session.user_agent,
  createdAt: session.created_at,
  lastSeenAt: session.last_seen_at,
  expiresAt: session.expires_at,
  current: session.uid === currentUid,
});

/**
 * Reads `?all=` of `POST /auth/logout`: true ends every other session of the account. A value
 * other than true or false is refused rather than guessed, since guessing wrong signs out too much
 * or too little.
 */
export function logoutAll(query: URLSearchParams): boolean {
  const all = query.get('all');
  if (all === null || all === 'false') return false;
  if (all === 'true') return true;
  throw validationFailed([{ path: 'all', message: 'must be true or false' }], 'The query is not valid.');
}

/** The caller's own sessions, and a super admin's way to end all of an account's sessions. */
export const sessionRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/auth/sessions',
    permission: 'authenticated',
    response: 'SessionList',
    summary: "The caller's live sessions, most recently seen first; `current` marks the one making the call.",
    async handler({ deps, auth }) {
      requireSession(auth, 'Listing sessions');
      const rows = await deps.db.kysely
        .selectFrom('sessions')
        .selectAll()
        .where('user_uid', '=', auth.user.uid)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', deps.clock.now().toISOString())
        .orderBy('last_seen_at', 'desc')
        .orderBy('uid', 'desc')
        .execute();
      return { items: rows.map((row) => view(row, auth.session?.uid)) };
    },
  }),
  route({
    method: 'DELETE',
    path: '/auth/sessions/:id',
    permission: 'authenticated',
    summary: 'End one of the caller’s sessions (the current one too); its next request answers 401.',
    async handler({ deps, auth, params }) {
      requireSession(auth, 'Ending a session');
      const result = await deps.db.kysely
        .updateTable('sessions')
        .set({ revoked_at: deps.clock.now().toISOString() })
        .where('uid', '=', params.id)
        .where('user_uid', '=', auth.user.uid)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', deps.clock.now().toISOString())
        .executeTakeFirst();
      // Another account's session answers like an unknown one.
      if (Number(result.numUpdatedRows) === 0) throw notFound('Session not found, or already ended.');
    },
  }),
  route({
    method: 'DELETE',
    path: '/system/users/:uid/sessions',
    permission: 'superAdmin',
    response: 'Revoked',
    summary: 'End every session of an account (a super admin acting on their own account keeps the current one).',
    async handler({ deps, auth, params }) {
      const target = await requireUser(deps, params.uid);
      const exceptIdHash = target.uid === auth.user.uid ? auth.session?.id_hash : undefined;
      const revoked = await revokeUserSessions(deps, target.uid, { exceptIdHash });
      deps.logger.info({ user: target.uid, actor: auth.user.uid, revoked }, 'sessions ended by a super admin');
      return { revoked };
    },
  }),
];
