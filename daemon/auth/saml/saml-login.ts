import { randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import type { SAML } from '@node-saml/node-saml';
import { recordAuditInUserOrganizations } from '../../audit/audit-log.js';
import type { Organization, SamlProvidersTable } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';
import { notFound } from '../../errors.js';
import { applyGroupRoles } from '../../orgs/group-roles.js';
import { resolveDirectoryAccount } from '../enterprise/directory-account.js';
import { issueHandoffCode } from '../handoff.js';
import { completePage, failurePage } from '../oauth/flow.js';
import { SignInError } from '../oauth/provider-error.js';
import { safeReturnTo } from '../oauth/return-to.js';
import { STATE_TTL_SECONDS } from '../oauth/states.js';
import { RateLimiter } from '../../limits/rate-limit.js';
import { samlIdentity } from './saml-attributes.js';
import { findSamlProvider, serviceProviderUrls } from './saml-providers.js';
import { consumeSamlRequest, markAssertionUsed, SAML_REQUEST_TTL_SECONDS, samlRequestStore } from './saml-requests.js';
import { SamlVerificationError } from './verify-worker.js';

/** The clock difference tolerated between svc and the identity provider. */
export const SAML_CLOCK_SKEW_MS = 30_000;
/** A SAMLResponse form is small; anything larger is refused before it is read. */
export const ACS_BODY_LIMIT = 256 * 1024;
/** Signature and digest algorithms weaker than SHA-256 (SHA-1) are refused. */
const WEAK_ALGORITHM = /Algorithm\s*=\s*["'][^"']*(?:#rsa-sha1|#dsa-sha1|#hmac-sha1|xmldsig#sha1|#sha1)["']/i;

type Deps = AppDeps;

/** An organization with a SAML provider, by slug; 404 alike for an unknown organization and one without SAML. */
export async function samlOrganization(deps: Pick<AppDeps, 'db'>, slug: string): Promise<{ org: Organization; provider: SamlProvidersTable }> {
  const org = await deps.db.kysely.selectFrom('organizations').selectAll().where('slug', '=', slug).executeTakeFirst();
  const provider = org ? await findSamlProvider(deps, org.uid) : undefined;
  if (!org || !provider) throw notFound(`No SAML sign-in is configured for "${slug}".`);
  return { org, provider };
}

const pem = (body: string) => `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----`;

/**
 * node-saml's options for an organization: signed responses or assertions required (either the
 * Response or its one Assertion must carry a valid signature of the provider's certificates;
 * what is read is only the signed XML, so a wrapped copy is never what counts), audience
 * checked, NotBefore/NotOnOrAfter with {@link SAML_CLOCK_SKEW_MS}.
 */
function samlOptions(deps: Pick<AppDeps, 'config'>, org: Organization, provider: SamlProvidersTable) {
  const urls = serviceProviderUrls(deps, org.slug);
  return {
    issuer: urls.entityId,
    audience: urls.entityId,
    callbackUrl: urls.acsUrl,
    entryPoint: provider.idp_sso_url,
    idpCert: (JSON.parse(provider.idp_certificates) as string[]).map(pem),
    wantAuthnResponseSigned: false,
    wantAssertionsSigned: false,
    acceptedClockSkewMs: SAML_CLOCK_SKEW_MS,
    requestIdExpirationPeriodMs: SAML_REQUEST_TTL_SECONDS * 1000,
    identifierFormat: null,
    disableRequestedAuthnContext: true,
  };
}

/** The service provider that sends an organization's AuthnRequests, storing each request's ID. */
async function serviceProvider(deps: Deps, org: Organization, provider: SamlProvidersTable, returnTo: string): Promise<SAML> {
  const { SAML, ValidateInResponseTo } = await import('@node-saml/node-saml');
  return new SAML({
    ...samlOptions(deps, org, provider),
    validateInResponseTo: ValidateInResponseTo.always,
    cacheProvider: samlRequestStore(deps, org.uid, returnTo),
    generateUniqueId: () => `_${randomBytes(20).toString('hex')}`,
  });
}

/** The service provider's metadata XML for the organization's identity provider to import (the organization's own, with or without a stored provider). */
export async function serviceProviderMetadata(deps: Deps, slug: string): Promise<string> {
  // Served before any identity provider is stored: the admin enters it there first.
  const org = await deps.db.kysely.selectFrom('organizations').select('slug').where('slug', '=', slug).executeTakeFirst();
  if (!org) throw notFound(`No organization "${slug}".`);
  const { generateServiceProviderMetadata } = await import('@node-saml/node-saml');
  const urls = serviceProviderUrls(deps, org.slug);
  return generateServiceProviderMetadata({ issuer: urls.entityId, callbackUrl: urls.acsUrl, identifierFormat: null, wantAssertionsSigned: true });
}

/**
 * Starts a SAML sign-in: stores the request (its ID must come back as InResponseTo) and returns
 * the identity provider's address with the deflated AuthnRequest (HTTP-Redirect binding).
 * Limited per client address like the other external sign-ins.
 */
export async function startSamlLogin(deps: Deps, ctx: Context, slug: string, returnTo: string | null): Promise<string> {
  const { org, provider } = await samlOrganization(deps, slug);
  await new RateLimiter(deps, deps.config.auth.externalSignInRateLimit, STATE_TTL_SECONDS).reserve(`oauth-start:ip:${ctx.ip}`);
  const sp = await serviceProvider(deps, org, provider, safeReturnTo(returnTo));
  return sp.getAuthorizeUrlAsync('', undefined, {});
}

/**
 * The assertion consumer service: verifies the posted SAMLResponse (node-saml, then issuer,
 * recipient and destination, SHA-256, the request taken once and the assertion never seen
 * before), finds or creates the account (linking an existing one only when it verified its
 * address and belongs to this organization alone, below owner), applies the organization's group mapping (just-in-time membership,
 * `viewer` when no group is mapped), records `auth.signed_in` and parks the sign-in under a
 * hand-off code. Returns where to send the browser; failures go there with `error=<reason>`.
 */
export async function completeSamlLogin(deps: Deps, slug: string, form: URLSearchParams): Promise<string> {
  try {
    const { org, provider } = await samlOrganization(deps, slug);
    const encoded = form.get('SAMLResponse');
    if (!encoded) throw new SignInError('saml_refused', 'no SAMLResponse in the form');
    const xml = Buffer.from(encoded, 'base64').toString('utf8');
    if (WEAK_ALGORITHM.test(xml)) throw new SignInError('saml_refused', 'a signature or digest algorithm weaker than SHA-256');
    const acsUrl = serviceProviderUrls(deps, org.slug).acsUrl;
    let verified;
    try {
      verified = await deps.caches.saml.verify(samlOptions(deps, org, provider), encoded);
    } catch (error) {
      if (!(error instanceof SamlVerificationError)) throw error;
      throw new SignInError('saml_refused', `response refused: ${error.message.slice(0, 200)}`);
    }
    const { profile } = verified;
    // A Response that names a Destination must name this ACS.
    if (verified.destination && verified.destination !== acsUrl) throw new SignInError('saml_refused', 'the response is for another destination');
    if (!profile.nameID) throw new SignInError('saml_refused', 'the assertion has no NameID');
    if (profile.issuer !== provider.idp_entity_id) throw new SignInError('saml_refused', 'the assertion was issued by another entity');
    const assertion = assertionFacts(verified.assertion);
    if (!assertion.recipients.length || assertion.recipients.some((r) => r !== acsUrl))
      throw new SignInError('saml_refused', 'the assertion is for another recipient');
    if (!assertion.id) throw new SignInError('saml_refused', 'the assertion has no ID');
    // The Response's InResponseTo may lie outside what is signed; the signed confirmation's must agree.
    const inResponseTo = typeof profile.inResponseTo === 'string' ? profile.inResponseTo : undefined;
    if (!inResponseTo) throw new SignInError('saml_refused', 'the response answers no request (IdP-initiated sign-in is not accepted)');
    if (assertion.inResponseTo.some((id) => id !== undefined && id !== inResponseTo))
      throw new SignInError('saml_refused', 'InResponseTo does not match the signed subject confirmation');
    const expiresAt = assertion.notOnOrAfter ?? new Date(Date.now() + SAML_REQUEST_TTL_SECONDS * 1000).toISOString();
    if (!(await markAssertionUsed(deps, org.uid, assertion.id, expiresAt))) throw new SignInError('saml_refused', 'the assertion was used before (replay)');
    const request = await consumeSamlRequest(deps, org.uid, inResponseTo);
    if (!request) throw new SignInError('saml_refused', 'the request it answers is unknown, expired or already answered (replay)');

    const identity = samlIdentity(profile);
    if (!identity.email) throw new SignInError('email_not_verified', 'the assertion carries no e-mail address');
    const { user } = await resolveDirectoryAccount(
      deps,
      { provider: `saml:${org.uid}`, subject: identity.subject, email: identity.email, name: identity.name },
      false,
      org.uid,
    );
    await applyGroupRoles(deps, user, identity.groups, { via: 'saml', onlyOrganizationUid: org.uid, fallbackRole: 'viewer' });
    await recordAuditInUserOrganizations(deps.db.kysely, deps.clock, user.uid, {
      kind: 'auth.signed_in',
      actorUid: user.uid,
      targetUid: user.uid,
      data: { method: 'saml', organization: org.slug },
    });
    const code = await issueHandoffCode(deps, user, `saml:${org.slug}`, request.returnTo);
    deps.logger.info({ user: user.uid, org: org.slug }, 'SAML sign-in completed');
    return completePage(deps, { code });
  } catch (error) {
    return failurePage(deps, `saml:${slug}`, error);
  }
}

type XmlJs = Record<string, any>;

/** The verified assertion's ID, its subject confirmations' recipients and InResponseTo, and its expiry. */
function assertionFacts(parsed: XmlJs | null): { id?: string; recipients: string[]; inResponseTo: (string | undefined)[]; notOnOrAfter?: string } {
  const assertion = parsed?.Assertion as XmlJs | undefined;
  const confirmations: XmlJs[] = assertion?.Subject?.[0]?.SubjectConfirmation ?? [];
  const data = confirmations.map((c) => (c.SubjectConfirmationData?.[0]?.$ ?? {}) as Record<string, string | undefined>);
  const notOnOrAfter = assertion?.Conditions?.[0]?.$?.NotOnOrAfter as string | undefined;
  return {
    id: assertion?.$?.ID as string | undefined,
    recipients: data.map((d) => d.Recipient ?? ''),
    inResponseTo: data.map((d) => d.InResponseTo),
    notOnOrAfter,
  };
}
