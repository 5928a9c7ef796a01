import { recordAudit } from '../audit/audit-log.js';
import type { Scope } from '../access/auth-context.js';
import type { AppDeps } from '../deps.js';
import { notFound } from '../errors.js';
import type { TokenView } from './personal-tokens.js';

/** The user's tokens that still exist (not revoked; expired ones are listed as such), newest first. */
export async function listPersonalTokens(deps: Pick<AppDeps, 'db'>, userUid: string): Promise<TokenView[]> {
  const rows = await deps.db.kysely
    .selectFrom('personal_tokens')
    .innerJoin('organizations', 'organizations.uid', 'personal_tokens.organization_uid')
    .select([
      'personal_tokens.uid',
      'personal_tokens.name',
      'personal_tokens.scopes',
      'personal_tokens.expires_at',
      'personal_tokens.last_used_at',
      'personal_tokens.created_at',
      'organizations.slug',
    ])
    .where('personal_tokens.user_uid', '=', userUid)
    .where('personal_tokens.revoked_at', 'is', null)
    .orderBy('personal_tokens.uid', 'desc')
    .execute();
  return rows.map((row) => ({
    uid: row.uid,
    name: row.name,
    org: row.slug,
    scopes: JSON.parse(row.scopes) as Scope[],
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
    createdAt: row.created_at,
  }));
}

/** Revokes one of the user's own tokens (404 for anyone else's); revoking twice is harmless. */
export async function revokePersonalToken(deps: Pick<AppDeps, 'db' | 'clock'>, userUid: string, tokenUid: string): Promise<void> {
  await deps.db.kysely.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('personal_tokens').selectAll().where('uid', '=', tokenUid).where('user_uid', '=', userUid).executeTakeFirst();
    if (!row) throw notFound('Access token not found.');
    if (row.revoked_at) return;
    await trx.updateTable('personal_tokens').set({ revoked_at: deps.clock.now().toISOString() }).where('uid', '=', row.uid).execute();
    await recordAudit(trx, deps.clock, { organizationUid: row.organization_uid, kind: 'token.revoked', actorUid: userUid, targetUid: userUid, data: { tokenUid: row.uid, name: row.name } });
  });
}
