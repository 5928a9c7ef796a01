import type { CacheProvider } from '@node-saml/node-saml';
import { isoIn } from '../../clock.js';
import type { AppDeps } from '../../deps.js';

/** An authentication request must be answered within this time. */
export const SAML_REQUEST_TTL_SECONDS = 600;

type Deps = Pick<AppDeps, 'db' | 'clock'>;

/**
 * node-saml's request cache, kept in the database (so any replica can take the answer): the ID
 * of each request sent is stored with where the dashboard continues. An answer's InResponseTo
 * must name a stored, unexpired request of the same organization, taken once, atomically, by
 * {@link consumeSamlRequest} after the whole response is verified (so removal here does nothing).
 */
export function samlRequestStore(deps: Deps, organizationUid: string, returnTo = '/'): CacheProvider {
  return {
    async saveAsync(key) {
      const now = deps.clock.now();
      // Old rows are only history; sweep the expired ones.
      await deps.db.kysely.deleteFrom('saml_requests').where('expires_at', '<', now.toISOString()).execute();
      await deps.db.kysely
        .insertInto('saml_requests')
        .values({
          request_id: key,
          organization_uid: organizationUid,
          return_to: returnTo,
          created_at: now.toISOString(),
          expires_at: isoIn(deps.clock, SAML_REQUEST_TTL_SECONDS),
        })
        .execute();
      return { value: now.toISOString(), createdAt: now.getTime() };
    },
    async getAsync(key) {
      const row = await deps.db.kysely
        .selectFrom('saml_requests')
        .select('created_at')
        .where('request_id', '=', key)
        .where('organization_uid', '=', organizationUid)
        .where('expires_at', '>', deps.clock.now().toISOString())
        .executeTakeFirst();
      return row?.created_at ?? null;
    },
    async removeAsync(key) {
      return key;
    },
  };
}

/** Takes a request answered by a verified response; undefined when it was already taken (a replay) or expired. */
export async function consumeSamlRequest(deps: Deps, organizationUid: string, requestId: string): Promise<{ returnTo: string } | undefined> {
  const row = await deps.db.kysely
    .deleteFrom('saml_requests')
    .where('request_id', '=', requestId)
    .where('organization_uid', '=', organizationUid)
    .where('expires_at', '>', deps.clock.now().toISOString())
    .returning('return_to')
    .executeTakeFirst();
  return row ? { returnTo: row.return_to } : undefined;
}

/** Records an assertion as used until it expires; false when it was used before (a replay). */
export async function markAssertionUsed(deps: Deps, organizationUid: string, assertionId: string, expiresAt: string): Promise<boolean> {
  const now = deps.clock.now().toISOString();
  await deps.db.kysely.deleteFrom('saml_used_assertions').where('expires_at', '<', now).execute();
  const inserted = await deps.db.kysely
    .insertInto('saml_used_assertions')
    .values({ organization_uid: organizationUid, assertion_id: assertionId, expires_at: expiresAt })
    .onConflict((oc) => oc.columns(['organization_uid', 'assertion_id']).doNothing())
    .returning('assertion_id')
    .executeTakeFirst();
  return inserted !== undefined;
}
