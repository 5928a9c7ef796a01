import { isoIn } from '../../clock.js';
import type { AppDeps } from '../../deps.js';
import { randomToken, sha256 } from '../../crypto/tokens.js';

/** How long an authorization may stay in flight. */
export const STATE_TTL_SECONDS = 600;

/** An authorization in flight, as stored. */
export interface PendingAuthorization {
  provider: string;
  purpose: 'login' | 'install';
  codeVerifier: string | null;
  nonce: string | null;
  returnTo: string;
  userUid: string | null;
  organizationUid: string | null;
}

type Deps = Pick<AppDeps, 'db' | 'clock'>;

/** Stores a new authorization and returns its `state` (only its SHA-256 is kept). */
export async function createState(deps: Deps, pending: PendingAuthorization): Promise<string> {
  const state = randomToken(32);
  const now = deps.clock.now().toISOString();
  // Abandoned authorizations are swept as new ones start.
  await deps.db.kysely.deleteFrom('oauth_states').where('expires_at', '<=', now).execute();
  await deps.db.kysely
    .insertInto('oauth_states')
    .values({
      state_hash: sha256(state),
      provider: pending.provider,
      purpose: pending.purpose,
      code_verifier: pending.codeVerifier,
      nonce: pending.nonce,
      return_to: pending.returnTo,
      user_uid: pending.userUid,
      organization_uid: pending.organizationUid,
      created_at: now,
      expires_at: isoIn(deps.clock, STATE_TTL_SECONDS),
    })
    .execute();
  return state;
}

/**
 * Takes an authorization out of the store: the delete is the single use, so a replayed or
 * concurrent callback finds nothing. Undefined when unknown, expired or for another provider.
 */
export async function consumeState(
  deps: Deps,
  state: string,
  provider: string,
  purpose: PendingAuthorization['purpose'],
): Promise<PendingAuthorization | undefined> {
  const row = await deps.db.kysely.deleteFrom('oauth_states').where('state_hash', '=', sha256(state)).returningAll().executeTakeFirst();
  if (!row || row.expires_at <= deps.clock.now().toISOString() || row.provider !== provider || row.purpose !== purpose) return undefined;
  return {
    provider: row.provider,
    purpose: row.purpose as PendingAuthorization['purpose'],
    codeVerifier: row.code_verifier,
    nonce: row.nonce,
    returnTo: row.return_to,
    userUid: row.user_uid,
    organizationUid: row.organization_uid,
  };
}
