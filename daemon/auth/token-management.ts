import { recordAudit } from '../audit/audit-log.js';
import type { Clock } from '../clock.js';
import type { Scope } from '../access/auth-context.js';
import type { AppDeps } from '../deps.js';
import { notFound } from '../errors.js';
import type { TokenView } from './personal-tokens.js';
import type { Executor } from '../db/executor.js';
import { inTransaction } from '../db/in-transaction.js';

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
  await inTransaction(deps.db.kysely, async (trx) => {
    const row = await trx.selectFrom('personal_tokens').selectAll().where('uid', '=', tokenUid).where('user_uid', '=', userUid).executeTakeFirst();
    if (!row) throw notFound('Access token not found.');
    if (row.revoked_at) return;
    await trx.updateTable('personal_tokens').set({ revoked_at: deps.clock.now().toISOString() }).where('uid', '=', row.uid).execute();
    await recordAudit(trx, deps.clock, {
      organizationUid: row.organization_uid,
      kind: 'token.revoked',
      actorUid: userUid,
      targetUid: userUid,
      data: { tokenUid: row.uid, name: row.name },
    });
  });
}

/**
 * Revokes every live personal access token of an account (after a password reset, or when the
 * holder asks at a password or e-mail change), in the transaction `db`, recording `token.revoked`
 * in each token's organization. Returns how many were revoked.
 */
export async function revokeAllPersonalTokens(db: Executor, clock: Clock, userUid: string, reason: string): Promise<number> {
  const now = clock.now().toISOString();
  const revoked = await db
    .updateTable('personal_tokens')
    .set({ revoked_at: now })
    .where('user_uid', '=', userUid)
    .where('revoked_at', 'is', null)
    .returning(['uid', 'name', 'organization_uid'])
    .execute();
  await recordAudit(
    db,
    clock,
    ...revoked.map((row) => ({
      organizationUid: row.organization_uid,
      kind: 'token.revoked' as const,
      actorUid: userUid,
      targetUid: userUid,
      data: { tokenUid: row.uid, name: row.name, reason },
    })),
  );
  return revoked.length;
}

/** The account's tokens that still work (neither revoked nor expired), for notices. */
export async function livePersonalTokens(deps: Pick<AppDeps, 'db' | 'clock'>, userUid: string): Promise<TokenView[]> {
  const now = deps.clock.now().toISOString();
  return (await listPersonalTokens(deps, userUid)).filter((token) => token.expiresAt === null || token.expiresAt > now);
}

/** How a notice lists the tokens that still work. */
export function describeLiveTokens(tokens: TokenView[]): string[] {
  if (tokens.length === 0) return ['No personal access token of the account is live.'];
  return [
    'These personal access tokens of the account still work; revoke any you do not recognise (account settings, or DELETE /api/v1/auth/tokens/{uid}):',
    ...tokens.map(
      (token) =>
        `- ${token.name} (organization ${token.org}, scopes ${token.scopes.join(' ')}, created ${token.createdAt}${token.lastUsedAt ? `, last used ${token.lastUsedAt}` : ''})`,
    ),
  ];
}
