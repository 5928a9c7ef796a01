import type { SamlProvider } from '../../../contract/enterprise-sign-in.js';
import { recordAudit } from '../../audit/audit-log.js';
import type { Organization, SamlProvidersTable } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';
import { validationFailed } from '../../errors.js';
import { fetchIdpMetadata, parseIdpMetadata } from './idp-metadata.js';
import { inTransaction } from '../../db/in-transaction.js';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'memberEgress'>;

/** The SAML identity provider of an organization as the API shows it (no key material). */
export type SamlProviderView = SamlProvider;

/** The addresses of an organization's service provider: entity ID (its metadata), ACS and login. */
export function serviceProviderUrls(deps: Pick<AppDeps, 'config'>, slug: string) {
  const base = `${deps.config.baseUrl}/api/v1/auth/saml/${encodeURIComponent(slug)}`;
  return { entityId: `${base}/metadata`, acsUrl: `${base}/acs`, metadataUrl: `${base}/metadata`, loginUrl: `${base}/login` };
}

/** The stored identity provider of an organization. */
export async function findSamlProvider(deps: Pick<AppDeps, 'db'>, organizationUid: string) {
  return deps.db.kysely.selectFrom('saml_providers').selectAll().where('organization_uid', '=', organizationUid).executeTakeFirst();
}

/** The view of a stored provider. */
export async function samlProviderView(deps: Pick<AppDeps, 'config'>, org: Organization, row: SamlProvidersTable): Promise<SamlProviderView> {
  const { createHash, X509Certificate } = await import('node:crypto');
  const fingerprints = (JSON.parse(row.idp_certificates) as string[]).map((body) => {
    try {
      return new X509Certificate(Buffer.from(body, 'base64')).fingerprint256;
    } catch {
      return createHash('sha256').update(Buffer.from(body, 'base64')).digest('hex');
    }
  });
  return {
    idpEntityId: row.idp_entity_id,
    idpSsoUrl: row.idp_sso_url,
    metadataUrl: row.metadata_url,
    certificateFingerprints: fingerprints,
    required: row.required === 1,
    serviceProvider: serviceProviderUrls(deps, org.slug),
    updatedAt: row.updated_at,
  };
}

/**
 * Stores an organization's identity provider from its metadata (given, or fetched from an https
 * address), replacing any earlier one (`required` left out keeps the stored setting), and
 * records `organization.saml_changed`. Every signing
 * certificate is checked to be a parseable X.509 certificate before anything is written.
 */
export async function storeSamlProvider(
  deps: Deps,
  org: Organization,
  actorUid: string,
  input: { metadataXml?: string; metadataUrl?: string; required?: boolean },
): Promise<SamlProvidersTable> {
  const xml = input.metadataXml ?? (await fetchIdpMetadata(deps.memberEgress, input.metadataUrl!));
  // A fetched document is not the caller's to read: what is wrong with it is not described.
  const metadata = input.metadataXml
    ? await parseIdpMetadata(xml)
    : await parseIdpMetadata(xml).catch(() => {
        throw validationFailed([{ path: 'metadataUrl', message: 'the document at this address is not SAML identity provider metadata' }]);
      });
  const { X509Certificate } = await import('node:crypto');
  for (const body of metadata.certificates) {
    try {
      new X509Certificate(Buffer.from(body, 'base64'));
    } catch {
      throw validationFailed([{ path: input.metadataXml ? 'metadataXml' : 'metadataUrl', message: 'a signing certificate is not a valid X.509 certificate' }]);
    }
  }
  const current = await findSamlProvider(deps, org.uid);
  const now = deps.clock.now().toISOString();
  const row: SamlProvidersTable = {
    organization_uid: org.uid,
    metadata_xml: xml,
    metadata_url: input.metadataXml ? null : input.metadataUrl!,
    idp_entity_id: metadata.entityId,
    idp_sso_url: metadata.ssoUrl,
    idp_certificates: JSON.stringify(metadata.certificates),
    required: (input.required ?? current?.required === 1) ? 1 : 0,
    created_at: now,
    updated_at: now,
  };
  await inTransaction(deps.db.kysely, async (trx) => {
    // One upsert, so two first configurations at once both succeed (the last one wins).
    const { organization_uid: _key, ...replaced } = row;
    await trx
      .insertInto('saml_providers')
      .values(row)
      .onConflict((oc) => oc.column('organization_uid').doUpdateSet(replaced))
      .execute();
    await recordAudit(trx, deps.clock, {
      organizationUid: org.uid,
      kind: 'organization.saml_changed',
      actorUid,
      data: { idpEntityId: metadata.entityId, idpSsoUrl: metadata.ssoUrl, required: row.required === 1, metadataUrl: row.metadata_url },
    });
  });
  return row;
}

/** Removes an organization's identity provider (and with it "SAML required"); false when there was none. */
export async function deleteSamlProvider(deps: Deps, org: Organization, actorUid: string): Promise<boolean> {
  return inTransaction(deps.db.kysely, async (trx) => {
    const deleted = await trx.deleteFrom('saml_providers').where('organization_uid', '=', org.uid).executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) return false;
    await trx.deleteFrom('saml_requests').where('organization_uid', '=', org.uid).execute();
    await recordAudit(trx, deps.clock, { organizationUid: org.uid, kind: 'organization.saml_changed', actorUid, data: { removed: true } });
    return true;
  });
}
